// --replay reads its YAML job list and the jobspecs it names through the
// session's reader (Session::read_input), so that state/ can record them.
#include "queue/replay.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "traversers/test_fixture.h"

namespace rq::queue {
namespace {

TEST(QueueReplay, ReadsTheJobListAndJobspecsThroughTheGivenReader) {
    rq::testing::Matcher m(rq::testing::machine_recipe(1, 1, 1, 4), "low");
    std::map<std::string, std::string> files = {
        {"/nonexistent/list.yaml",
         "- {submit: 0, runtime: 5, size: 4}\n- {submit: 1, runtime: 5, jobspec: /nonexistent/two.yaml}\n"},
        {"/nonexistent/two.yaml",
         rq::testing::jobspec_yaml("  - type: slot\n    count: 2\n    label: s\n    with:\n"
                                   "      - type: core\n        count: 1\n",
                                   7)}};
    std::vector<std::string> asked;
    ReplayConfig config;
    config.trace = "/nonexistent/list.yaml";
    config.policy = *make_queue_policy("fcfs", 32, 0);
    config.read = [&](const std::string& path, std::string& text) {
        asked.push_back(path);
        auto it = files.find(path);
        if (it == files.end()) return false;
        text = it->second;
        return true;
    };
    std::ostringstream out, err;
    ASSERT_TRUE(replay(*m.traverser, config, out, err).ok()) << err.str();
    EXPECT_EQ(asked, (std::vector<std::string>{"/nonexistent/list.yaml", "/nonexistent/two.yaml"}));
    EXPECT_NE(out.str().find("SUMMARY jobs=2\n"), std::string::npos) << out.str();
    // Job 2 waits for job 1 (4 cores until 5), then runs its run time.
    EXPECT_NE(out.str().find("\n2,job2,default,1,5,10,4,5,7,"), std::string::npos) << out.str();

    files.erase("/nonexistent/two.yaml");
    rq::testing::Matcher fresh(rq::testing::machine_recipe(1, 1, 1, 4), "low");
    Status failed = replay(*fresh.traverser, config, out, err);
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.message().find("/nonexistent/two.yaml"), std::string::npos) << failed.message();
}

}  // namespace
}  // namespace rq::queue
