// The reapi_cli C API through its exported symbols only (the C99 client
// tests of t/reapi cover the ABI from C; these cover the contract's
// corners and the thread model).
#include "resource/reapi/bindings/c/reapi_cli.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "utilities/file.h"

namespace {

std::string slurp(const std::string& relative) {
    std::string text;
    EXPECT_TRUE(rq::read_file(std::string(RQ_SOURCE_DIR) + "/" + relative, text)) << relative;
    return text;
}

struct Ctx {
    reapi_cli_ctx_t* c = reapi_cli_new();
    ~Ctx() { reapi_cli_destroy(c); }
};

std::string take(char* p) {
    std::string s = p ? p : "(null)";
    std::free(p);
    return s;
}

const std::string kTiny = slurp("conf/tiny.graphml");
const std::string kCore = slurp("t/data/jobspecs/node-socket-core.yaml");
const std::string kTooBig = slurp("t/data/jobspecs/too-big.yaml");

struct Match {
    int rc = 0, err = 0;
    uint64_t id = 0;
    bool reserved = false;
    std::string R;
    int64_t at = 0;
};

// Tests pass out-of-range ops on purpose, as C and Go clients may: the
// op parameter is then not a valid enum value, which clang's UBSan enum
// check would stop at here, in the test, before the library sees it.
__attribute__((no_sanitize("enum"))) Match match(reapi_cli_ctx_t* c, match_op_t op, const std::string& js) {
    Match m;
    char* R = nullptr;
    double ov = 0;
    m.rc = reapi_cli_match(c, op, js.c_str(), &m.id, &m.reserved, &R, &m.at, &ov);
    m.err = m.rc ? errno : 0;
    m.R = R ? take(R) : "";
    return m;
}

void init(reapi_cli_ctx_t* c, const char* options = "{}") { ASSERT_EQ(reapi_cli_initialize(c, kTiny.c_str(), options), 0); }

TEST(ReapiCli, NullContextIsEinval) {
    errno = 0;
    EXPECT_EQ(reapi_cli_initialize(nullptr, "", "{}"), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(reapi_cli_cancel(nullptr, 1, true), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(reapi_cli_clone(nullptr), nullptr);
    const char* msg = reapi_cli_get_err_msg(nullptr);
    ASSERT_NE(msg, nullptr);
    EXPECT_NE(std::string(msg), "");
    std::free(const_cast<char*>(msg));
}

TEST(ReapiCli, OptionsAreRefusedWhenEmptyNotJsonOrBadlyTyped) {
    // EPROTO, as the original reports bad options (spec/reapi.md §3).
    for (const char* bad : {"", "not json", "[1]", R"({"matcher_policy": 5})", R"({"matcher_policy": "nosuch"})",
                            R"({"load_format": "yaml"})", R"({"matcher_name": "XY"})"}) {
        Ctx x;
        EXPECT_EQ(reapi_cli_initialize(x.c, kTiny.c_str(), bad), -1) << bad;
        EXPECT_EQ(errno, EPROTO) << bad;
    }
    Ctx x;
    init(x.c, R"({"unknown_key": 1, "matcher_policy": "high"})");
    EXPECT_EQ(reapi_cli_initialize(x.c, kTiny.c_str(), "{}"), -1);  // a second initialize
    EXPECT_EQ(errno, EINVAL);
    Ctx y;
    EXPECT_EQ(reapi_cli_initialize(y.c, "<graphml>broken", "{}"), -1);
    EXPECT_EQ(errno, EPROTO);
}

TEST(ReapiCli, IdsCountFromOneAndWithoutAllocatingTakesNone) {
    Ctx x;
    init(x.c);
    Match a = match(x.c, MATCH_ALLOCATE, kCore);
    ASSERT_EQ(a.rc, 0);
    EXPECT_EQ(a.id, 1u);
    EXPECT_FALSE(a.reserved);
    EXPECT_EQ(a.R.rfind("{\"graph\"", 0), 0u) << a.R;  // jgf by default
    Match w = match(x.c, MATCH_WITHOUT_ALLOCATING, kCore);
    ASSERT_EQ(w.rc, 0);
    EXPECT_EQ(w.id, UINT64_MAX);
    EXPECT_EQ(match(x.c, MATCH_ALLOCATE, kCore).id, 2u);
    EXPECT_EQ(match(x.c, static_cast<match_op_t>(42), kCore).err, EINVAL);
    Match bad = match(x.c, MATCH_ALLOCATE, "resources: [");
    EXPECT_EQ(bad.err, EINVAL);
    EXPECT_NE(take(const_cast<char*>(reapi_cli_get_err_msg(x.c))).find("Jobspec error for 3"), std::string::npos);
}

TEST(ReapiCli, BusyAndUnsatisfiableAreDistinct) {
    Ctx x;
    init(x.c);
    EXPECT_EQ(match(x.c, MATCH_ALLOCATE, kTooBig).err, EBUSY);
    EXPECT_EQ(match(x.c, MATCH_ALLOCATE_W_SATISFIABILITY, kTooBig).err, ENODEV);
    bool sat = true;
    double ov = 0;
    EXPECT_EQ(reapi_cli_match_satisfy(x.c, kTooBig.c_str(), &sat, &ov), -1);
    EXPECT_EQ(errno, ENODEV);
    EXPECT_FALSE(sat);
    EXPECT_EQ(reapi_cli_match_satisfy(x.c, kCore.c_str(), &sat, &ov), 0);
    EXPECT_TRUE(sat);
    int err = 0;
    EXPECT_EQ(take(reapi_cli_last_error(x.c, &err)), "");  // the last call succeeded
    EXPECT_EQ(err, 0);
}

TEST(ReapiCli, CancelInfoAndMessages) {
    Ctx x;
    init(x.c);
    ASSERT_EQ(match(x.c, MATCH_ALLOCATE, kCore).rc, 0);
    char* mode = nullptr;
    bool reserved = true;
    int64_t at = -1;
    double ov = 0;
    ASSERT_EQ(reapi_cli_info(x.c, 1, &mode, &reserved, &at, &ov), 0);
    EXPECT_EQ(take(mode), "ALLOCATED");
    EXPECT_EQ(reapi_cli_cancel(x.c, 1, false), 0);
    ASSERT_EQ(reapi_cli_info(x.c, 1, &mode, &reserved, &at, &ov), 0);
    EXPECT_EQ(take(mode), "CANCELED");
    EXPECT_EQ(reapi_cli_cancel(x.c, 99999, false), -1);
    EXPECT_EQ(errno, ENOENT);
    EXPECT_EQ(reapi_cli_cancel(x.c, 99999, true), 0);
    EXPECT_EQ(reapi_cli_info(x.c, 7, &mode, &reserved, &at, &ov), -1);
    EXPECT_EQ(errno, ENOENT);
    EXPECT_NE(take(const_cast<char*>(reapi_cli_get_err_msg(x.c))).find("cancel: ERROR: nonexistent job 99999"),
              std::string::npos);
    reapi_cli_clear_err_msg(x.c);
    EXPECT_EQ(take(const_cast<char*>(reapi_cli_get_err_msg(x.c))), "");
}

TEST(ReapiCli, MatchAllIsAllOrNothing) {
    Ctx x;
    init(x.c);
    const char* specs[] = {kCore.c_str(), kTooBig.c_str()};
    uint64_t ids[2] = {0, 0};
    char* R[2] = {nullptr, nullptr};
    size_t failed = 9;
    double ov = 0;
    EXPECT_EQ(reapi_cli_match_all(x.c, MATCH_ALLOCATE, specs, 2, ids, nullptr, R, nullptr, &ov, &failed), -1);
    EXPECT_EQ(errno, EBUSY);
    EXPECT_EQ(failed, 1u);
    EXPECT_EQ(R[0], nullptr);
    EXPECT_EQ(match(x.c, MATCH_ALLOCATE, kCore).id, 1u);  // no id consumed, nothing left allocated
    const char* two[] = {kCore.c_str(), kCore.c_str()};
    ASSERT_EQ(reapi_cli_match_all(x.c, MATCH_ALLOCATE, two, 2, ids, nullptr, R, nullptr, &ov, nullptr), 0);
    EXPECT_EQ(ids[0], 2u);
    EXPECT_EQ(ids[1], 3u);
    take(R[0]);
    take(R[1]);
}

TEST(ReapiCli, CloneIsIndependent) {
    Ctx x;
    init(x.c);
    ASSERT_EQ(match(x.c, MATCH_ALLOCATE, kCore).rc, 0);
    reapi_cli_ctx_t* copy = reapi_cli_clone(x.c);
    ASSERT_NE(copy, nullptr);
    Match in_copy = match(copy, MATCH_ALLOCATE, kCore);
    Match in_orig = match(x.c, MATCH_ALLOCATE, kCore);
    EXPECT_EQ(in_copy.id, in_orig.id);
    EXPECT_EQ(in_copy.R, in_orig.R);
    EXPECT_EQ(reapi_cli_cancel(copy, 1, false), 0);
    char* mode = nullptr;
    bool reserved = false;
    int64_t at = 0;
    double ov = 0;
    ASSERT_EQ(reapi_cli_info(x.c, 1, &mode, &reserved, &at, &ov), 0);
    EXPECT_EQ(take(mode), "ALLOCATED");
    reapi_cli_destroy(copy);
    Ctx empty;
    EXPECT_EQ(reapi_cli_clone(empty.c), nullptr);
    EXPECT_EQ(errno, EINVAL);
}

TEST(ReapiCli, FindStatAndStatus) {
    Ctx x;
    init(x.c);
    char* R = nullptr;
    ASSERT_EQ(reapi_cli_find(x.c, "status=down", nullptr, &R), 0);
    EXPECT_EQ(R, nullptr);
    ASSERT_EQ(reapi_cli_find(x.c, "status=up", nullptr, &R), 0);
    std::string found = take(R);
    EXPECT_EQ(found.find(' '), std::string::npos) << found;  // compact JSON
    EXPECT_EQ(reapi_cli_find(x.c, "status=up", "nonsense", &R), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(reapi_cli_find(x.c, "bogus=1", nullptr, &R), -1);
    EXPECT_EQ(errno, EINVAL);

    int64_t V = 0, E = 0, J = 0;
    double load = 0, mn = 0, mx = 0, avg = 0;
    ASSERT_EQ(match(x.c, MATCH_ALLOCATE, kCore).rc, 0);
    ASSERT_EQ(reapi_cli_stat(x.c, &V, &E, &J, &load, &mn, &mx, &avg), 0);
    EXPECT_GT(V, 0);
    EXPECT_EQ(E, V - 1);  // one tree
    EXPECT_EQ(J, 1);
    EXPECT_GT(mx, 0);

    resource_status_t st = RESOURCE_DOWN;
    EXPECT_EQ(reapi_cli_set_status(x.c, "/nowhere", RESOURCE_DOWN), -1);
    EXPECT_EQ(errno, EINVAL);
    ASSERT_EQ(reapi_cli_set_status(x.c, "/tiny0/rack0/node1", RESOURCE_DOWN), 0);
    ASSERT_EQ(reapi_cli_get_status(x.c, "/tiny0/rack0/node1", &st), 0);
    EXPECT_EQ(st, RESOURCE_DOWN);
    ASSERT_EQ(reapi_cli_find(x.c, "status=down", nullptr, &R), 0);
    EXPECT_NE(take(R).find("node1"), std::string::npos);
    EXPECT_EQ(reapi_cli_set_rank_status(x.c, "", RESOURCE_UP), -1);
    EXPECT_EQ(errno, EINVAL);
    EXPECT_EQ(reapi_cli_set_rank_status(x.c, "all", RESOURCE_UP), 0);
}

TEST(ReapiCli, LegacySwitchMakesAFailedMatchSucceedWithEmptyR) {
    setenv("REAPI_CLI_LEGACY_MATCH", "1", 1);
    Ctx x;
    unsetenv("REAPI_CLI_LEGACY_MATCH");
    init(x.c);
    Match m = match(x.c, MATCH_ALLOCATE, kTooBig);
    EXPECT_EQ(m.rc, 0);
    EXPECT_EQ(m.R, "");
    bool sat = true;
    double ov = 0;
    EXPECT_EQ(reapi_cli_match_satisfy(x.c, kTooBig.c_str(), &sat, &ov), -1);  // not "satisfiable"
    EXPECT_FALSE(sat);
    Ctx y;
    init(y.c);
    EXPECT_EQ(match(y.c, MATCH_ALLOCATE, kTooBig).rc, -1);
}

// Serial R texts of n match/cancel rounds on a fresh context.
std::vector<std::string> rounds(reapi_cli_ctx_t* c, int n) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) {
        Match m = match(c, i % 3 ? MATCH_ALLOCATE : MATCH_ALLOCATE_ORELSE_RESERVE, kCore);
        out.push_back(std::to_string(m.rc) + m.R);
        if (m.rc == 0 && i % 2) reapi_cli_cancel(c, m.id, false);
    }
    return out;
}

TEST(ReapiCli, ContextsRunConcurrentlyWithSerialResults) {
    Ctx serial;
    init(serial.c);
    const std::vector<std::string> expected = rounds(serial.c, 300);
    std::vector<std::vector<std::string>> got(8);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            Ctx x;
            init(x.c);
            got[t] = rounds(x.c, 300);
        });
    for (auto& th : threads) th.join();
    for (auto& g : got) EXPECT_EQ(g, expected);
}

TEST(ReapiCli, ThreadsShareOneContext) {
    Ctx x;
    init(x.c);
    // Eight threads, four sockets: a match finds room or is EBUSY; either
    // way it takes an id, and every allocation is cancelled.
    std::vector<std::thread> threads;
    std::vector<int> matched(8, 0);
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 200; ++i) {
                Match m = match(x.c, MATCH_ALLOCATE, kCore);
                EXPECT_TRUE(m.rc == 0 || m.err == EBUSY) << m.err;
                if (m.rc != 0) continue;
                ++matched[t];
                EXPECT_EQ(reapi_cli_cancel(x.c, m.id, false), 0);
            }
        });
    for (auto& th : threads) th.join();
    int64_t V, E, J;
    double l, a, b, c;
    ASSERT_EQ(reapi_cli_stat(x.c, &V, &E, &J, &l, &a, &b, &c), 0);
    int total = 0;
    for (int n : matched) total += n;
    EXPECT_EQ(J, total);  // one record per allocation, none lost or doubled
    EXPECT_EQ(match(x.c, MATCH_ALLOCATE, kCore).id, 1601u);  // 1600 attempts, 1600 ids
    for (uint64_t id = 1; id <= 1600; ++id) {  // nothing left allocated
        char* mode = nullptr;
        bool reserved = false;
        int64_t at = 0;
        double ov = 0;
        if (reapi_cli_info(x.c, id, &mode, &reserved, &at, &ov) == 0) {
            EXPECT_EQ(take(mode), "CANCELED") << id;
        }
    }
}

}  // namespace
