// The store of canceled jobs (docs/state.md, Memory).
#include "session/canceled_jobs.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace rq {
namespace {

void fill(CanceledJobs& c, int64_t n) {
    auto a = std::make_shared<const std::string>("a.yaml");
    auto b = std::make_shared<const std::string>("b.yaml");
    for (int64_t id = 1; id <= n; ++id)
        c.append(id * 3, id, static_cast<double>(id) / 7, id % 5 == 0 ? nullptr : id % 2 ? a : b);
}

void check(const CanceledJobs& c, int64_t n) {
    ASSERT_EQ(c.size(), static_cast<size_t>(n));
    EXPECT_EQ(c.last_id(), n * 3);
    for (int64_t id = 1; id <= n; ++id) {
        auto r = c.find(id * 3);
        ASSERT_TRUE(r) << id;
        EXPECT_EQ(r->scheduled_at, id);
        EXPECT_EQ(r->overhead, static_cast<double>(id) / 7);
        const auto& path = c.path(r->path);
        if (id % 5 == 0)
            EXPECT_EQ(path, nullptr);
        else
            EXPECT_EQ(*path, id % 2 ? "a.yaml" : "b.yaml");
        EXPECT_FALSE(c.find(id * 3 - 1));
    }
    EXPECT_FALSE(c.find(n * 3 + 3));
}

TEST(CanceledJobs, RecordsReadBackExactlyAcrossBlocksAndTheWriteBuffer) {
    CanceledJobs c;
    fill(c, 3 * CanceledJobs::kBlockRecords + 77);  // the last 77: part file, part buffer
    check(c, 3 * CanceledJobs::kBlockRecords + 77);
    CanceledJobs moved = std::move(c);
    check(moved, 3 * CanceledJobs::kBlockRecords + 77);
    EXPECT_EQ(c.size(), 0u);
}

// No temporary file: one warning naming the place and the errno text, and
// the records stay in memory, all of them readable.
TEST(CanceledJobs, WithoutATemporaryFileKeepsRecordsInMemoryAndSaysWhy) {
    const char* old = std::getenv("TMPDIR");
    std::string saved = old != nullptr ? old : "";
    setenv("TMPDIR", "/nonexistent-dir-for-canceled-jobs", 1);
    testing::internal::CaptureStderr();
    CanceledJobs c;
    fill(c, 2 * CanceledJobs::kBlockRecords + 5);
    std::string err = testing::internal::GetCapturedStderr();
    if (old != nullptr)
        setenv("TMPDIR", saved.c_str(), 1);
    else
        unsetenv("TMPDIR");
    EXPECT_NE(err.find("/nonexistent-dir-for-canceled-jobs"), std::string::npos) << err;
    EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line: " << err;
    check(c, 2 * CanceledJobs::kBlockRecords + 5);
}

}  // namespace
}  // namespace rq
