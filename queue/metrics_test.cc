// The summary's wait statistics against a simple model that keeps every
// wait (the histogram must give the same median, without per-job memory).
#include "queue/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

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

TEST(QueueMetrics, NoJobsGiveZeroes) {
    Metrics m(4);
    Summary s = m.summary();
    EXPECT_EQ(s.jobs, 0);
    EXPECT_EQ(s.wait_median, 0);
}

}  // namespace
}  // namespace rq::queue
