// The allocation picture's writer (resource/allocation_dot.h): the DOT
// text of a small hand-built graph with allocated, reserved and shared
// vertices, the palette, the held-only picture, and checked writes.
#include "resource/allocation_dot.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "resource/writer_test_util.h"

namespace rq {
namespace {

// cluster0 -> node0 -> {core0, core1}, cluster0 -> node1 -> core0 (names
// repeat, as in every GRUG graph), with containment paths; vertex 5's
// name needs escaping.
struct SmallGraph {
    ResourceGraph g;
    SmallGraph() {
        SubsystemId containment = g.subsystems().intern("containment");
        auto add = [&](const std::string& type, int64_t id, const std::string& name, VertexId parent) {
            VertexId v = testing::add_vertex(g, type, type, id, -1, name);
            if (parent == kNoVertex) {
                g.set_path(v, containment, "/" + name);
                g.set_root(containment, v);
            } else {
                g.add_edge(parent, v, containment);
                g.set_path(v, containment, g.path(parent, containment) + "/" + name);
            }
            return v;
        };
        VertexId cluster = add("cluster", 0, "cluster0", kNoVertex);
        VertexId node0 = add("node", 0, "node0", cluster);
        add("core", 0, "core0", node0);
        add("core", 1, "core1", node0);
        VertexId node1 = add("node", 1, "node1", cluster);
        add("core", 0, "o\"dd\\", node1);
    }
};

std::string picture(const ResourceGraph& g, const AllocationMap& holders, AllocationDotOptions options = {}) {
    std::ostringstream out;
    write_allocation_dot(g, holders, out, options);
    return out.str();
}

TEST(AllocationDot, ColoursAndLabelsEachJobsVertices) {
    SmallGraph s;
    AllocationMap holders;
    holders[1].allocated = {1};     // node0: job 1
    holders[2].allocated = {1};     // core0: job 1
    holders[3].allocated = {1, 2};  // core1: shared by jobs 1 and 2
    holders[5].reserved = {3};      // node1's core: reserved by job 3
    std::ostringstream out;
    EXPECT_EQ(write_allocation_dot(s.g, holders, out), 6u);
    EXPECT_EQ(out.str(),
              "digraph allocations {\n"
              "node [shape=box];\n"
              "0 [id=\"v0\", tooltip=\"/cluster0\", label=\"cluster0\"];\n"
              "1 [id=\"v1\", tooltip=\"/cluster0/node0\", class=\"job1\", label=\"node0\\njob 1\", "
              "style=\"filled\", fillcolor=\"#8dd3c7\"];\n"
              "2 [id=\"v2\", tooltip=\"/cluster0/node0/core0\", class=\"job1\", label=\"core0\\njob 1\", "
              "style=\"filled\", fillcolor=\"#8dd3c7\"];\n"
              "3 [id=\"v3\", tooltip=\"/cluster0/node0/core1\", class=\"job1 job2\", "
              "label=\"core1\\njob 1\\njob 2\", style=\"striped\", fillcolor=\"#8dd3c7:#ffffb3\"];\n"
              "4 [id=\"v4\", tooltip=\"/cluster0/node1\", label=\"node1\"];\n"
              "5 [id=\"v5\", tooltip=\"/cluster0/node1/o\\\"dd\\\\\", class=\"job3\", "
              "label=\"o\\\"dd\\\\\\njob 3 (reserved)\", style=\"dashed\", color=\"#bebada\", penwidth=3];\n"
              "0->1;\n1->2;\n1->3;\n0->4;\n4->5;\n"
              "subgraph cluster_legend {\n"
              "label=\"jobs\";\n"
              "legend_job1 [label=\"job 1\", id=\"legend_job1\", style=\"filled\", fillcolor=\"#8dd3c7\"];\n"
              "legend_job2 [label=\"job 2\", id=\"legend_job2\", style=\"filled\", fillcolor=\"#ffffb3\"];\n"
              "legend_job3 [label=\"job 3 (reserved)\", id=\"legend_job3\", style=\"dashed\", "
              "color=\"#bebada\", penwidth=3];\n"
              "{rank=same; legend_job1->legend_job2->legend_job3 [style=invis];}\n"
              "}\n"
              "}\n");
}

TEST(AllocationDot, AVertexBothHeldAndReservedIsFilledAndDashed) {
    SmallGraph s;
    AllocationMap holders;
    holders[2].allocated = {4};
    holders[2].reserved = {5};
    EXPECT_NE(picture(s.g, holders).find("2 [id=\"v2\", tooltip=\"/cluster0/node0/core0\", class=\"job4 job5\", "
                                         "label=\"core0\\njob 4\\njob 5 (reserved)\", style=\"filled,dashed\", "
                                         "fillcolor=\"#fb8072\", color=\"#80b1d3\", penwidth=3];\n"),
              std::string::npos)
        << picture(s.g, holders);
}

TEST(AllocationDot, AVertexOfManyJobsNamesTheFirstFour) {
    SmallGraph s;
    AllocationMap holders;
    holders[2].allocated = {1, 2, 3, 4, 5, 6, 7, 8};
    holders[2].reserved = {9};
    std::string text = picture(s.g, holders);
    EXPECT_NE(text.find("label=\"core0\\njob 1\\njob 2\\njob 3\\njob 4\\n+5 more\""), std::string::npos) << text;
    // Six stripes at most.
    EXPECT_NE(text.find("fillcolor=\"#8dd3c7:#ffffb3:#bebada:#fb8072:#80b1d3:#fdb462\""), std::string::npos) << text;
}

TEST(AllocationDot, TheLegendListsJobsInOrderEightToARow) {
    SmallGraph s;
    AllocationMap holders;
    for (int64_t job = 1; job <= 17; ++job) holders[2].allocated.push_back(job);
    std::string text = picture(s.g, holders);
    EXPECT_NE(text.find("{rank=same; legend_job1->legend_job2->legend_job3->legend_job4->legend_job5->legend_job6->"
                        "legend_job7->legend_job8 [style=invis];}\n"
                        "legend_job1->legend_job9 [style=invis];\n"
                        "{rank=same; legend_job9->legend_job10->legend_job11->legend_job12->legend_job13->"
                        "legend_job14->legend_job15->legend_job16 [style=invis];}\n"
                        "legend_job9->legend_job17 [style=invis];\n}\n"),
              std::string::npos)
        << text;
}

TEST(AllocationDot, PaletteCyclesByJobId) {
    const auto& palette = job_palette();
    ASSERT_EQ(palette.size(), 12u);
    EXPECT_EQ(job_colour(1), palette[0]);
    EXPECT_EQ(job_colour(12), palette[11]);
    EXPECT_EQ(job_colour(13), palette[0]);
    EXPECT_EQ(job_colour(0), palette[11]);  // update may record job 0
    EXPECT_EQ(job_colour(-1), palette[10]);
}

TEST(AllocationDot, HeldOnlyDrawsTheHeldVerticesAndTheirAncestors) {
    SmallGraph s;
    AllocationMap holders;
    holders[5].allocated = {2};
    std::ostringstream out;
    EXPECT_EQ(write_allocation_dot(s.g, holders, out, AllocationDotOptions{true}), 3u);
    std::string text = out.str();
    for (const char* drawn : {"\n0 [", "\n4 [", "\n5 [", "\n0->4;", "\n4->5;"})
        EXPECT_NE(text.find(drawn), std::string::npos) << drawn << " in " << text;
    for (const char* left_out : {"\n1 [", "\n2 [", "\n3 [", "->1;"})
        EXPECT_EQ(text.find(left_out), std::string::npos) << left_out << " in " << text;
}

TEST(AllocationDot, NoJobIsSaidInTheLegend) {
    SmallGraph s;
    std::string text = picture(s.g, {});
    EXPECT_NE(text.find("legend_none [label=\"no job holds a resource\", style=\"\"];"), std::string::npos);
    EXPECT_EQ(text.find("job1"), std::string::npos);
}

TEST(AllocationDot, LargePicturesAreWarnedAbout) {
    EXPECT_EQ(large_picture_warning("a.dot", kDotLayoutVertexLimit, false), "");
    EXPECT_EQ(large_picture_warning("a.dot", kDotLayoutVertexLimit + 1, false),
              "a.dot: 2001 vertices; Graphviz dot may take minutes to lay out more than 2000 (dump FILE held "
              "draws only the jobs' vertices and their ancestors)");
    EXPECT_EQ(large_picture_warning("a.dot", 5000, true),
              "a.dot: 5000 vertices; Graphviz dot may take minutes to lay out more than 2000");
}

TEST(AllocationDot, WritesAreChecked) {
    SmallGraph s;
    Status bad_path = export_allocation_dot(s.g, {}, "no/such/dir/a.dot");
    ASSERT_FALSE(bad_path.ok());
    EXPECT_EQ(bad_path.message(), "can't open no/such/dir/a.dot for writing: No such file or directory");
    if (std::filesystem::exists("/dev/full")) {
        Status full = export_allocation_dot(s.g, {}, "/dev/full");
        ASSERT_FALSE(full.ok());
        EXPECT_EQ(full.message(), "error writing /dev/full: No space left on device");
    }
    std::string path = ::testing::TempDir() + "allocation_dot_test.dot";
    size_t drawn = 0;
    ASSERT_TRUE(export_allocation_dot(s.g, {}, path, {}, &drawn).ok());
    EXPECT_EQ(drawn, 6u);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), picture(s.g, {}));
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace rq
