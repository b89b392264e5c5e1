// The replay's progress line (queue/replay_progress.h): its text, and
// nothing at all when it is off (stderr not a terminal).
#include "queue/replay_progress.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace rq::queue {
namespace {

TEST(ReplayProgress, SaysJobsDoneOfTotalSimulatedTimeAndRate) {
    EXPECT_EQ(ReplayProgress::line(250, 1000, 3600, 0.5), "replay: 250/1000 jobs done, simulated time 3600 s, 500 jobs/s");
    EXPECT_EQ(ReplayProgress::line(3, -1, 7, 0), "replay: 3 jobs done, simulated time 7 s, 0 jobs/s");
}

TEST(ReplayProgress, WritesNothingWhenOffAndOneRewrittenLineWhenOn) {
    std::ostringstream off_out;
    ReplayProgress off(off_out, false, 10);
    off.update(1, 5);
    off.finish(10, 9);
    EXPECT_EQ(off_out.str(), "");

    std::ostringstream on_out;
    ReplayProgress on(on_out, true, 10);
    on.update(0, 0);
    on.finish(10, 9);
    std::string text = on_out.str();
    EXPECT_EQ(text.rfind("\rreplay: 0/10 jobs done, simulated time 0 s, ", 0), 0u) << text;
    EXPECT_NE(text.find("\rreplay: 10/10 jobs done, simulated time 9 s, "), std::string::npos) << text;
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line";
}

TEST(ReplayProgress, CountsTheJobLinesOfAnSwfTrace) {
    std::string path = ::testing::TempDir() + "/rq-progress-" + std::to_string(::getpid()) + ".swf";
    std::ofstream(path) << "; MaxProcs: 8\n;\n1 0 -1 10 4\n\n  2 5 -1 10 2\n   ; note\n3 6 -1 1 1";
    EXPECT_EQ(count_trace_jobs(path), 3);
    std::remove(path.c_str());
    EXPECT_EQ(count_trace_jobs("/nonexistent/trace.swf"), -1);
    EXPECT_EQ(count_trace_jobs("jobs.yaml"), -1);
}

}  // namespace
}  // namespace rq::queue
