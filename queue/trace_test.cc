// The SWF reader against the archive's definition of the format, version
// 2.2: https://www.cs.huji.ac.il/labs/parallel/workload/swf.html ("The
// Data Fields", "Header Comments"). The traces below are written by hand,
// one line per job, 18 fields, -1 where a field does not apply.
#include "queue/trace.h"

#include <gtest/gtest.h>

#include <vector>

namespace rq::queue {
namespace {

struct Read {
    std::vector<TraceJob> jobs;
    std::unique_ptr<TraceSource> source;
    std::string error;
};

Read read_swf(const std::string& text, TraceOptions options = {}) {
    if (options.capacity == 0) options.capacity = 64;
    if (options.time_limit == INT64_MAX) options.time_limit = 3153600000;
    Read r;
    auto source = swf_trace_from_text("t.swf", text, options);
    if (!source) {
        r.error = source.message();
        return r;
    }
    r.source = std::move(*source);
    for (;;) {
        auto job = r.source->next();
        if (!job) {
            r.error = job.message();
            break;
        }
        if (!*job) break;
        r.jobs.push_back(**job);
    }
    return r;
}

// Fields: 1 job number, 2 submit, 3 wait, 4 run time, 5 allocated procs,
// 6 average cpu time, 7 used memory, 8 requested procs, 9 requested time,
// 10 requested memory, 11 status, 12 user, 13 group, 14 executable,
// 15 queue, 16 partition, 17 preceding job, 18 think time.
const char kArchiveStyle[] =
    "; Version: 2.2\n"
    "; MaxProcs: 64\n"
    "; UnixStartTime: 1000000000\n"
    // A completed job: requested 4 procs for 20 s, ran 10 s; user 7 of group 2, queue 1, partition 3.
    "17 0 5 10 4 9.5 512 4 20 1024 1 7 2 11 1 3 -1 -1\n"
    // "Requested Number of Processors" -1: the allocated count (field 5) stands in; no
    // requested memory (field 10 -1): the used memory (field 7).
    "18 5 -1 10 2 -1 256 -1 -1 -1 0 8 2 -1 2 3 -1 -1\n"
    // Some logs write 0 for "not given": field 5 as well. A run time of 0 ("the job
    // ran for less than 0.5 seconds"); status 5, canceled.
    "20 6 -1 0 3 -1 -1 0 30 -1 5 7 -1 -1 -1 -1 -1 -1\n";

TEST(SwfTrace, ReadsTheFieldsTheArchiveDefines) {
    Read r = read_swf(kArchiveStyle);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.jobs.size(), 3u);
    const TraceJob& a = r.jobs[0];
    EXPECT_EQ(a.number, 17);
    EXPECT_TRUE(a.has_number);
    EXPECT_EQ(a.line, 4);
    EXPECT_EQ(a.size, 4);
    EXPECT_EQ(a.runtime, 10);
    EXPECT_EQ(a.estimate, 20);
    EXPECT_EQ(a.mem, 1024);
    EXPECT_EQ(a.status, 1);
    EXPECT_EQ(a.user, "7");
    EXPECT_EQ(a.group, "2");
    EXPECT_EQ(a.queue, "1");
    const TraceJob& b = r.jobs[1];
    EXPECT_EQ(b.size, 2);       // field 8 -1: field 5
    EXPECT_EQ(b.estimate, 10);  // field 9 -1: the run time
    EXPECT_EQ(b.mem, 256);      // field 10 -1: field 7
    EXPECT_EQ(b.queue, "2");
    const TraceJob& c = r.jobs[2];
    EXPECT_EQ(c.size, 3);       // field 8 0: field 5
    EXPECT_EQ(c.runtime, 0);    // kept: counted apart by the metrics
    EXPECT_EQ(c.status, 5);
    EXPECT_EQ(c.queue, "default");  // field 15 -1
    EXPECT_EQ(c.user, "7");
    EXPECT_EQ(c.group, "");
}

TEST(SwfTrace, PartitionsAsQueuesAndCompletedOnly) {
    TraceOptions options;
    options.partition_queues = true;
    options.completed_only = true;
    Read r = read_swf(kArchiveStyle, options);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.jobs.size(), 1u);  // status 0 (failed) and 5 (canceled) are skipped
    EXPECT_EQ(r.jobs[0].queue, "3");
    EXPECT_EQ(r.source->skipped().count(SkipReason::kStatus), 2);
    EXPECT_EQ(r.source->skipped().first_line(SkipReason::kStatus), 5);
}

TEST(SwfTrace, MaxProcsLargerThanTheMachineIsOneClearError) {
    TraceOptions options;
    options.capacity = 32;
    Read r = read_swf(kArchiveStyle, options);
    EXPECT_EQ(r.error, "t.swf:2: MaxProcs: 64 is larger than the machine (32 cores): replay on a machine of at least 64 "
                       "cores, or give --replay-nodes if the trace's processors are nodes");
    // With whole nodes, MaxNodes is the header that counts.
    options.whole_nodes = true;
    options.capacity_unit = "nodes";
    r = read_swf("; MaxProcs: 64\n; MaxNodes: 8\n1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n", options);
    EXPECT_EQ(r.error, "");
    options.capacity = 4;
    r = read_swf("; MaxNodes: 8\n", options);
    EXPECT_EQ(r.error, "t.swf:1: MaxNodes: 8 is larger than the machine (4 nodes): replay on a machine of at least 8 nodes");
}

TEST(SwfTrace, OutOfRangeJobsAreSkippedWithTheirLine) {
    // Submit 3,153,599,990 with 20 s requested cannot end inside the
    // planning window (3,153,600,000 s): skipped and counted, not lost.
    Read r = read_swf("1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n"
                      "2 3153599990 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n"
                      "3 3153599991 -1 10 4 -1 -1 4 5 -1 1 1 1 -1 1 1 -1 -1\n");
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.jobs.size(), 2u);
    EXPECT_EQ(r.jobs[1].number, 3);
    EXPECT_EQ(r.source->skipped().count(SkipReason::kOutOfRange), 1);
    EXPECT_EQ(r.source->skipped().first_line(SkipReason::kOutOfRange), 2);
    EXPECT_EQ(r.source->skipped().describe("line"),
              "1 ending past the planning window (submit or requested time out of range) (first at line 2)");
}

TEST(SwfTrace, NumbersBeyondTheLimitSayTheLimit) {
    Read r = read_swf("1 9223372036854775000 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n");
    EXPECT_EQ(r.error, "t.swf:1: field 2 is out of range: '9223372036854775000', at most 9007199254740992");
    r = read_swf("1 0 -1 10 x -1 -1 4 20\n");
    EXPECT_EQ(r.error, "t.swf:1: field 5 is not a number: 'x'");
}

TEST(SwfTrace, ANegativeSubmitNamesFileAndLine) {
    Read r = read_swf("; header\n1 -5 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n");
    EXPECT_EQ(r.error, "t.swf:2: submit time -5 is negative (field 2)");
    // Shifted, the first accepted submit is 0 and later ones follow it.
    TraceOptions options;
    options.shift = true;
    r = read_swf("1 -5 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n2 -2 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n",
                 options);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.jobs[1].submit, 3);
}

TEST(YamlTrace, RequestsUsersAndRangesInAJobList) {
    TraceOptions options;
    options.time_limit = 1000;
    auto source = yaml_trace_from_text("l.yaml",
                                       "- {submit: 0, runtime: 5, request: cpus=2, user: alice}\n"
                                       "- {submit: 990, runtime: 20, size: 1}\n"
                                       "- {submit: 1, runtime: 5, size: 2, jobspec: j.yaml}\n",
                                       options);
    ASSERT_FALSE(source.ok());
    EXPECT_EQ(source.message(), "l.yaml: job 3: needs one of 'size', 'jobspec' or 'request'");
    source = yaml_trace_from_text("l.yaml",
                                  "- {submit: 0, runtime: 5, request: cpus=2, user: alice}\n"
                                  "- {submit: 990, runtime: 20, size: 1}\n",
                                  options);
    ASSERT_TRUE(source.ok()) << source.message();
    auto job = (*source)->next();
    ASSERT_TRUE(job.ok() && *job);
    EXPECT_EQ((*job)->request, "cpus=2");
    EXPECT_EQ((*job)->user, "alice");
    EXPECT_FALSE((*job)->has_number);
    job = (*source)->next();
    ASSERT_TRUE(job.ok());
    EXPECT_FALSE(*job);
    EXPECT_EQ((*source)->skipped().first_line(SkipReason::kOutOfRange), 2);
    source = yaml_trace_from_text("l.yaml", "- {submit: 9223372036854775000, runtime: 5, size: 1}\n", options);
    ASSERT_FALSE(source.ok());
    EXPECT_EQ(source.message(), "l.yaml: job 1: submit is out of range: '9223372036854775000', at most 9007199254740992");
}

}  // namespace
}  // namespace rq::queue
