// The summary's wait statistics against a simple model that keeps every
// wait (the histogram must give the same median, without per-job memory).
#include "queue/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

namespace rq::queue {
namespace {

QueueJob finished(int64_t submit, int64_t wait, int64_t run) {
    QueueJob j;
    j.submit = submit;
    j.start = submit + wait;
    j.end = j.start + run;
    j.runtime = run;
    j.estimate = run;
    j.size = 1;
    return j;
}

double model_median(std::vector<int64_t> w) {
    std::sort(w.begin(), w.end());
    size_t mid = w.size() / 2;
    return w.size() % 2 == 0 ? (double(w[mid - 1]) + double(w[mid])) / 2 : double(w[mid]);
}

TEST(QueueMetrics, MedianMatchesSortedWaitsOnRandomWorkloads) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 300; ++round) {
        Metrics m(64);
        std::vector<int64_t> waits;
        int n = 1 + static_cast<int>(rng() % 60);
        // Some rounds reach past the dense range of the histogram.
        int64_t range = round % 3 == 0 ? (int64_t(1) << 22) : round % 3 == 1 ? 50 : 3;
        for (int i = 0; i < n; ++i) {
            int64_t w = static_cast<int64_t>(rng() % static_cast<uint64_t>(range));
            waits.push_back(w);
            m.add(finished(i, w, 1 + static_cast<int64_t>(rng() % 100)));
        }
        Summary s = m.summary();
        ASSERT_EQ(s.jobs, n);
        EXPECT_DOUBLE_EQ(s.wait_median, model_median(waits)) << "round " << round;
        EXPECT_EQ(s.wait_max, *std::max_element(waits.begin(), waits.end()));
    }
}

TEST(QueueMetrics, EvenCountAveragesTheTwoMiddleWaits) {
    Metrics m(4);
    for (int64_t w : {5, 1, 2000000, 3}) m.add(finished(0, w, 10));
    EXPECT_DOUBLE_EQ(m.summary().wait_median, 4.0);  // (3 + 5) / 2
}

// Nearest rank (the wait of rank ceil(p n / 100), from 1) on the sorted
// waits, against the histogram.
int64_t model_percentile(std::vector<int64_t> w, int64_t p) {
    std::sort(w.begin(), w.end());
    size_t rank = static_cast<size_t>((p * static_cast<int64_t>(w.size()) + 99) / 100);
    return w[rank - 1];
}

TEST(QueueMetrics, PercentilesMatchSortedWaits) {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 300; ++round) {
        Metrics m(64);
        std::vector<int64_t> waits;
        int n = 1 + static_cast<int>(rng() % 250);
        int64_t range = round % 2 == 0 ? (int64_t(1) << 22) : 40;
        for (int i = 0; i < n; ++i) {
            int64_t w = static_cast<int64_t>(rng() % static_cast<uint64_t>(range));
            waits.push_back(w);
            m.add(finished(i, w, 1));
        }
        Summary s = m.summary();
        EXPECT_EQ(s.wait_p90, model_percentile(waits, 90)) << "round " << round;
        EXPECT_EQ(s.wait_p99, model_percentile(waits, 99)) << "round " << round;
    }
    Metrics m(4);
    for (int64_t w = 1; w <= 10; ++w) m.add(finished(0, w, 10));
    EXPECT_EQ(m.summary().wait_p90, 9);   // rank 9 of 10
    EXPECT_EQ(m.summary().wait_p99, 10);  // rank 10
}

TEST(QueueMetrics, BoundedSlowdownMaxAndItsBound) {
    // wait 90, run 5: (90 + 5) / max(5, bound).
    Metrics ten(4);
    ten.add(finished(0, 90, 5));
    ten.add(finished(0, 0, 100));
    EXPECT_DOUBLE_EQ(ten.summary().bsld_max, 9.5);
    EXPECT_DOUBLE_EQ(ten.summary().bsld_mean, (9.5 + 1.0) / 2);
    Metrics sixty(4, 60);
    sixty.add(finished(0, 90, 5));
    EXPECT_DOUBLE_EQ(sixty.summary().bsld_max, 95.0 / 60.0);
    EXPECT_EQ(sixty.slowdown_bound(), 60);
}

TEST(QueueMetrics, UtilizationThroughputAndZeroRuntimes) {
    Metrics m(4);
    m.add(finished(0, 0, 100), 2);   // 200 core-seconds
    m.add(finished(50, 10, 0), 4);   // ran 0 s: counted apart, still a job
    Summary s = m.summary();
    EXPECT_EQ(s.jobs, 2);
    EXPECT_EQ(s.zero_runtime, 1);
    EXPECT_EQ(s.makespan, 100);
    EXPECT_DOUBLE_EQ(s.utilization, 200.0 / 400.0);
    EXPECT_DOUBLE_EQ(s.throughput, 2 * 3600.0 / 100);
}

TEST(QueueMetrics, PerQueueAndTopUsers) {
    Metrics m(8);
    auto add = [&](const char* queue, const char* user, int64_t wait, int64_t run, int64_t size) {
        QueueJob j = finished(0, wait, run);
        j.queue = queue;
        m.add(j, size, user);
    };
    add("batch", "alice", 10, 100, 4);  // 400 core-s
    add("batch", "bob", 0, 100, 1);     // 100
    add("short", "carol", 5, 10, 8);    // 80
    add("short", "bob", 0, 100, 2);     // bob: 300 in all
    add("short", "", 0, 1, 1);          // no user: in no user entry
    auto queues = m.by_queue();
    ASSERT_EQ(queues.size(), 2u);
    EXPECT_EQ(queues[0].first, "batch");
    EXPECT_EQ(queues[0].second.jobs, 2);
    EXPECT_DOUBLE_EQ(queues[0].second.wait_mean, 5.0);
    EXPECT_EQ(queues[1].second.jobs, 3);
    EXPECT_EQ(m.users(), 3u);
    auto top = m.top_users(2);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0].first, "alice");
    EXPECT_EQ(top[1].first, "bob");
    EXPECT_EQ(top[1].second.jobs, 2);
    EXPECT_EQ(m.top_users(10).size(), 3u);
}

// RFC 4180: a field with a comma, a quote or a line break is quoted, its
// quotes doubled; one row stays one row.
TEST(QueueMetrics, CsvFieldsAreQuotedAsRfc4180Says) {
    EXPECT_EQ(csv_field("plain"), "plain");
    EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
    EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
    QueueJob j = finished(0, 0, 5);
    j.id = 3;
    j.name = "x,\"y\"";
    j.queue = "q\r\n";
    std::ostringstream row;
    Metrics::csv_row(row, j, 1);
    EXPECT_EQ(row.str(), "3,\"x,\"\"y\"\"\",\"q\r\n\",0,0,5,0,5,5,1,completed,\n");
    // The nodes column: a hostlist with a comma is quoted.
    std::ostringstream nodes;
    Metrics::csv_row(nodes, finished(0, 0, 5), 8, "node[0-3,7]");
    EXPECT_EQ(nodes.str().substr(nodes.str().rfind("completed")), "completed,\"node[0-3,7]\"\n");
}

TEST(QueueMetrics, NoJobsGiveZeroes) {
    Metrics m(4);
    Summary s = m.summary();
    EXPECT_EQ(s.jobs, 0);
    EXPECT_EQ(s.wait_median, 0);
}

}  // namespace
}  // namespace rq::queue
