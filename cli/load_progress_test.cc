#include "cli/load_progress.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

TEST(LoadProgress, LineSaysWhatAndHowFar) {
    EXPECT_EQ(LoadProgress::line("conf/big.graphml", 250000, 1000001),
              "loading conf/big.graphml: 250000 of 1000001 vertices (24%)");
    EXPECT_EQ(LoadProgress::line("x", 0, 0), "loading x: 0 of 0 vertices (0%)");
}

TEST(LoadProgress, DisabledMeansNoCallback) {
    LoadProgress off("x", false);
    EXPECT_FALSE(off.callback());
    LoadProgress on("x", true);
    auto callback = on.callback();
    ASSERT_TRUE(callback);
    testing::internal::CaptureStderr();
    callback(1, 2);  // within the first second: nothing drawn
    on.finish();     // nothing to erase either
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace rq
