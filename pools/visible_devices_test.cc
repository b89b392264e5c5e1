// CUDA_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES as HyperQueue reads them
// (crates/hyperqueue/src/worker/hwdetect.rs:206-232, 293-299).
#include <gtest/gtest.h>

#include "pools/local_detect.h"

namespace rq::pools {
namespace {

std::vector<std::string> ids(const std::vector<PoolItem>& items) {
    std::vector<std::string> out;
    for (auto& i : items) out.push_back(i.id);
    return out;
}

TEST(VisibleDevices, HwdetectRs218_DuplicatesMakeTheVariableUnusable) {
    EXPECT_TRUE(visible_devices("1,0,1").empty());
    EXPECT_TRUE(visible_devices("0,0").empty());
}

TEST(VisibleDevices, HwdetectRs293_EmptyIdsMakeTheVariableUnusable) {
    EXPECT_TRUE(visible_devices("").empty());
    EXPECT_TRUE(visible_devices("0,,1").empty());
    EXPECT_TRUE(visible_devices("0,").empty());
}

TEST(VisibleDevices, HwdetectRs293_MinusOneIsAnIdLikeAnyOther) {
    EXPECT_EQ(ids(visible_devices("-1")), (std::vector<std::string>{"-1"}));
    EXPECT_EQ(ids(visible_devices("2,GPU-a1")), (std::vector<std::string>{"2", "GPU-a1"}));
}

}  // namespace
}  // namespace rq::pools
