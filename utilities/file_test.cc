#include "utilities/file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace rq {
namespace {

std::string temp_path(const char* name) { return testing::TempDir() + "rq_file_test_" + name; }

TEST(ReadFile, ReadsARegularFileWhole) {
    std::string path = temp_path("small");
    std::ofstream(path) << "abc\n";
    std::string text = "old", why;
    ASSERT_TRUE(read_file(path, text, &why, FileKind::kJobspec)) << why;
    EXPECT_EQ(text, "abc\n");
    std::remove(path.c_str());
}

TEST(ReadFile, RefusesDevicesAndDirectoriesWithTheReason) {
    std::string text, why;
    EXPECT_FALSE(read_file("/dev/zero", text, &why));
    EXPECT_EQ(why, "not a regular file (a character device)");
    EXPECT_FALSE(read_file("/", text, &why));
    EXPECT_EQ(why, "Is a directory");
    EXPECT_FALSE(read_file("/nonexistent/x", text, &why));
    EXPECT_EQ(why, "No such file or directory");
}

// The limit is checked against the file's size, before any byte is read.
TEST(ReadFile, RefusesAFileBeyondItsKindsLimit) {
    std::string path = temp_path("sparse");
    std::ofstream(path).close();
    ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(file_limit(FileKind::kJobspec) + 1)), 0);
    std::string text, why;
    EXPECT_FALSE(read_file(path, text, &why, FileKind::kJobspec));
    EXPECT_EQ(why, "larger than the 64 MiB limit for a jobspec");
    EXPECT_EQ(streamed_file_problem(path, FileKind::kJobspec), "larger than the 64 MiB limit for a jobspec");
    EXPECT_EQ(streamed_file_problem(path, FileKind::kTrace), "");
    std::remove(path.c_str());
}

TEST(ReadFile, AStreamedFileIsNeverAFifo) {
    std::string path = temp_path("fifo");
    std::remove(path.c_str());
    ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
    EXPECT_EQ(streamed_file_problem(path, FileKind::kTrace), "not a regular file (a pipe or socket cannot be streamed)");
    std::remove(path.c_str());
}

TEST(ReadFile, LimitsPerKind) {
    EXPECT_EQ(file_limit(FileKind::kGraph), uint64_t{1} << 30);
    EXPECT_EQ(file_limit(FileKind::kTrace), uint64_t{1} << 30);
    EXPECT_EQ(file_limit(FileKind::kJobspec), uint64_t{64} << 20);
    EXPECT_EQ(file_limit(FileKind::kConfig), uint64_t{64} << 20);
}

}  // namespace
}  // namespace rq
