// -g jgf round trip: every GRUG recipe of conf/ and of the conformance
// suite, loaded, written as JGF and loaded back with -f jgf, is the same
// graph: writing both graphs as JGF and as GraphML gives the same text
// (vertex order, uniq_ids, attributes, paths, edges and their order).
#include "resource/graph_export.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "resource/graph_text_test_util.h"
#include "resource/loader.h"
#include "utilities/file.h"
#include "utilities/sanitized.h"

namespace rq {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> recipes() {
    std::vector<fs::path> out;
    for (const char* dir : {RQ_SOURCE_DIR "/conf", RQ_SHARED_DIR "/conformance/data/grugs"}) {
        std::error_code ec;
        for (auto& entry : fs::directory_iterator(dir, ec))
            if (entry.path().extension() == ".graphml" || entry.path().filename() == "default")
                out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Units are the one attribute a JGF load does not keep (pinned: the
// reference's JGF reader drops them, resource/jgf_reader.cc).
std::string without_units(const std::string& text) {
    // Blanks the value after every `open` marker up to the `close` one.
    auto blank = [](std::string in, const std::string& open, char close) {
        std::string out;
        out.reserve(in.size());
        size_t at = 0;
        for (size_t hit; (hit = in.find(open, at)) != std::string::npos; at = in.find(close, hit + open.size())) {
            out.append(in, at, hit + open.size() - at);
            if (in.find(close, hit + open.size()) == std::string::npos) return out;
        }
        out.append(in, at, std::string::npos);
        return out;
    };
    std::string out = blank(text, "\"unit\":\"", '"');
    // GraphML: the data element of the key declared for attr.name="unit",
    // and of "aliases" (by-path registrations JGF has no way to express).
    for (const char* name : {"unit", "aliases"}) {
        size_t declared = out.find("attr.name=\"" + std::string(name) + "\"");
        if (declared == std::string::npos) continue;
        size_t id = out.rfind("<key id=\"", declared);
        std::string key = out.substr(id + 9, out.find('"', id + 9) - id - 9);
        out = blank(out, "<data key=\"" + key + "\">", '<');
    }
    return out;
}

// "" if equal, else the first difference with some context.
TEST(GraphExport, JgfOfEveryRecipeLoadsBackToTheSameGraph) {
    auto paths = recipes();
    // The handed-out recipes lie beside the checkout only where
    // ../shared exists; without them, our own six recipes (conf/).
    ASSERT_GE(paths.size(), fs::exists(RQ_SHARED_DIR "/conformance/data/grugs") ? 10u : 6u);
    for (const fs::path& path : paths) {
        LoadRequest grug;
        grug.path = path.string();
        ASSERT_TRUE(read_file(grug.path, grug.text)) << path;
        ResourceGraph original;
        Status loaded = load_graph(grug, original);
        ASSERT_TRUE(loaded.ok()) << path << ": " << loaded.message();
        if (original.num_vertices() > kSanitizedMaxTestVertices) continue;
        original.set_property(0, "class", "fast");
        if (original.num_vertices() > 1) original.set_up(1, false);

        LoadRequest jgf;
        jgf.format = "jgf";
        jgf.path = "exported.json";
        jgf.text = jgf_of(original);
        ResourceGraph reloaded;
        Status again = load_graph(jgf, reloaded);
        ASSERT_TRUE(again.ok()) << path << ": " << again.message();
        EXPECT_EQ(original.num_vertices(), reloaded.num_vertices()) << path;
        EXPECT_EQ(original.num_edges(), reloaded.num_edges()) << path;
        ASSERT_GT(without_units(jgf.text).size(), jgf.text.size() * 9 / 10) << path;  // masks only units
        EXPECT_EQ("", difference(without_units(jgf.text), jgf_of(reloaded))) << path;
        EXPECT_EQ("", difference(without_units(graphml_of(original)), without_units(graphml_of(reloaded)))) << path;
    }
}

}  // namespace
}  // namespace rq
