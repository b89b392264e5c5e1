#include "utilities/json_text.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

using Json = nlohmann::ordered_json;

TEST(JsonText, ObjectsAndArraysUseJanssonSeparators) {
    Json value = {{"k1", 1}, {"k2", Json::array({"a", "b"})}};
    EXPECT_EQ(json_text(value), R"({"k1": 1, "k2": ["a", "b"]})");
}

TEST(JsonText, EmptyContainers) {
    EXPECT_EQ(json_text(Json::object()), "{}");
    EXPECT_EQ(json_text(Json::array()), "[]");
    EXPECT_EQ(json_text(Json{{"a", Json::object()}, {"b", Json::array()}}), R"({"a": {}, "b": []})");
}

TEST(JsonText, KeysKeepInsertionOrder) {
    Json value = Json::object();
    value["zeta"] = 1;
    value["alpha"] = 2;
    value["mid"] = 3;
    value["zeta"] = 4;  // replacing keeps the original position
    EXPECT_EQ(json_text(value), R"({"zeta": 4, "alpha": 2, "mid": 3})");
}

TEST(JsonText, Scalars) {
    EXPECT_EQ(json_text(Json(0)), "0");
    EXPECT_EQ(json_text(Json(-17)), "-17");
    EXPECT_EQ(json_text(Json(uint64_t{18446744073709551615u})), "18446744073709551615");
    EXPECT_EQ(json_text(Json(int64_t{-9223372036854775807 - 1})), "-9223372036854775808");
    EXPECT_EQ(json_text(Json(true)), "true");
    EXPECT_EQ(json_text(Json(false)), "false");
    EXPECT_EQ(json_text(Json(nullptr)), "null");
}

TEST(JsonText, RealsLikeJansson) {
    EXPECT_EQ(json_text(Json(1.5)), "1.5");
    EXPECT_EQ(json_text(Json(2.0)), "2.0");
    EXPECT_EQ(json_text(Json(0.1)), "0.10000000000000001");
    EXPECT_EQ(json_text(Json(1e20)), "1e20");
    EXPECT_EQ(json_text(Json(1e-7)), "9.9999999999999995e-8");
}

TEST(JsonText, StringEscapes) {
    EXPECT_EQ(json_text(Json("say \"hi\"")), R"("say \"hi\"")");
    EXPECT_EQ(json_text(Json("back\\slash")), R"("back\\slash")");
    EXPECT_EQ(json_text(Json("a\nb\tc\rd\be\ff")), R"("a\nb\tc\rd\be\ff")");
    EXPECT_EQ(json_text(Json(std::string("\x01\x1f", 2))), R"("\u0001\u001F")");
    EXPECT_EQ(json_text(Json(std::string("nul\0x", 5))), R"("nul\u0000x")");
    EXPECT_EQ(json_text(Json("/a/b")), R"("/a/b")");          // slash unchanged
    EXPECT_EQ(json_text(Json("caf\xc3\xa9")), "\"caf\xc3\xa9\"");  // UTF-8 unchanged
    EXPECT_EQ(json_text(Json("\x7f")), "\"\x7f\"");
}

TEST(JsonText, EscapedKeysAndNesting) {
    Json value = {{"a\"b", {{"c", Json::array({1, Json::array({2, 3}), Json{{"d", nullptr}}})}}}};
    EXPECT_EQ(json_text(value), R"({"a\"b": {"c": [1, [2, 3], {"d": null}]}})");
}

TEST(JsonText, NoNewlinesInLargeDocuments) {
    Json nodes = Json::array();
    for (int i = 0; i < 3; ++i) nodes.push_back({{"id", std::to_string(i)}, {"metadata", {{"rank", -1}}}});
    Json graph = {{"graph", {{"nodes", nodes}, {"edges", Json::array()}}}};
    std::string text = json_text(graph);
    EXPECT_EQ(text.find('\n'), std::string::npos);
    EXPECT_EQ(text,
              R"({"graph": {"nodes": [{"id": "0", "metadata": {"rank": -1}}, )"
              R"({"id": "1", "metadata": {"rank": -1}}, {"id": "2", "metadata": {"rank": -1}}], )"
              R"("edges": []}})");
}

}  // namespace
}  // namespace rq
