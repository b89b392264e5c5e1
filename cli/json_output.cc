#include "cli/json_output.h"

#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>

namespace rq {

namespace {

// Keys in the order the text had them (jobid before resources ...).
using json = nlohmann::ordered_json;

const std::string kRule = "INFO: =============================";
const std::string kInfo = "INFO: ";

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// "SCHEDULED AT" -> "scheduled_at", "Num. of Jobs Matched" -> "num_of_jobs_matched".
std::string key_of(const std::string& text) {
    std::string key;
    for (char c : trim(text)) {
        unsigned char u = static_cast<unsigned char>(c);
        if (std::isalnum(u)) {
            key += static_cast<char>(std::tolower(u));
        } else if (!key.empty() && key.back() != '_') {
            key += '_';
        }
    }
    while (!key.empty() && key.back() == '_') key.pop_back();
    return key;
}

// A number when the whole text is one, else the text (quotes dropped).
json value_of(std::string text) {
    text = trim(text);
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
    if (!text.empty()) {
        char* end = nullptr;
        long long integer = std::strtoll(text.c_str(), &end, 10);
        if (*end == '\0' && !std::isspace(static_cast<unsigned char>(text[0]))) return integer;
        double real = std::strtod(text.c_str(), &end);
        if (*end == '\0' && !std::isspace(static_cast<unsigned char>(text[0])) &&
            text.find_first_of("0123456789") != std::string::npos)
            return real;
    }
    return text;
}

// Writer output: the JSON it holds, or the text itself.
json output_of(const std::vector<std::string>& lines) {
    std::string text;
    for (auto& l : lines) text += l + "\n";
    json parsed = json::parse(text, nullptr, false);
    if (!parsed.is_discarded()) return parsed;
    if (!text.empty()) text.pop_back();
    return text;
}

json info_line(const std::string& rest) {
    static const std::regex job(R"(^(-?\d+), (ALLOCATED|RESERVED|CANCELED), (-?\d+), (.*), ([^,]*)$)");
    static const std::regex help(R"(^([a-z-]+) \(([A-Za-z]+)\) -- (.*)$)");
    static const std::regex rank(R"(^number of vertices with rank (-?\d+): (\d+)$)");
    std::smatch m;
    if (std::regex_match(rest, m, rank))
        return {{"vertices_with_rank", {{"rank", value_of(m[1])}, {"count", value_of(m[2])}}}};
    if (std::regex_match(rest, m, job))
        return {{"job",
                 {{"id", value_of(m[1])}, {"state", m[2]}, {"scheduled_at", value_of(m[3])},
                  {"jobspec", m[4]}, {"overhead", value_of(m[5])}}}};
    if (std::regex_match(rest, m, help)) return {{"command", m[1]}, {"abbreviation", m[2]}, {"help", m[3]}};
    // `-e` lines printed outside a block when the block goes to the -t
    // file: "ELAPSE=0.001", "PREORDER VISIT COUNT=8".
    static const std::regex upper_key(R"(^([A-Z][A-Z .]*)=(.*)$)");
    if (std::regex_match(rest, m, upper_key)) return {{key_of(m[1]), value_of(m[2])}};
    size_t colon = rest.find(": ");
    if (colon != std::string::npos && !key_of(rest.substr(0, colon)).empty())
        return {{key_of(rest.substr(0, colon)), value_of(rest.substr(colon + 2))}};
    return {{"info", rest}};
}

bool is_info(const std::string& line) { return line.compare(0, kInfo.size(), kInfo) == 0; }

}  // namespace

std::string json_lines_from_output(const std::string& text) {
    std::string result;
    auto emit = [&](const json& value) { result += value.dump() + "\n"; };
    std::vector<std::string> pending;  // writer output not yet emitted
    auto emit_pending = [&] {
        if (!pending.empty()) emit({{"output", output_of(pending)}});
        pending.clear();
    };
    auto lines = split_lines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line == kRule) {
            json block = json::object();
            if (!pending.empty()) block["output"] = output_of(pending);
            pending.clear();
            json messages = json::array();
            for (++i; i < lines.size() && lines[i] != kRule; ++i) {
                std::string rest = is_info(lines[i]) ? lines[i].substr(kInfo.size()) : lines[i];
                size_t eq = rest.find('=');
                if (eq != std::string::npos && !key_of(rest.substr(0, eq)).empty())
                    block[key_of(rest.substr(0, eq))] = value_of(rest.substr(eq + 1));
                else
                    messages.push_back(rest);
            }
            if (!messages.empty()) block["messages"] = messages;
            emit(block);
        } else if (is_info(line)) {
            emit_pending();
            emit(info_line(line.substr(kInfo.size())));
        } else {
            pending.push_back(line);
        }
    }
    emit_pending();
    return result;
}

std::string json_lines_from_errors(const std::string& text) {
    std::string result;
    for (auto& line : split_lines(text)) {
        std::string message = trim(line);
        if (!message.empty()) result += json({{"error", message}}).dump() + "\n";
    }
    return result;
}

JsonCapture::JsonCapture(std::vector<std::ostream*> streams) : captured_(streams.size()) {
    for (size_t i = 0; i < streams.size(); ++i) {
        captured_[i].stream = streams[i];
        captured_[i].original = streams[i]->rdbuf(&captured_[i].buffer);
    }
}

void JsonCapture::flush() {
    for (size_t i = 0; i < captured_.size(); ++i) {
        Captured& c = captured_[i];
        c.stream->flush();
        std::string text = c.buffer.str();
        if (text.empty()) continue;
        c.buffer.str("");
        std::string converted = i == 0 ? json_lines_from_errors(text) : json_lines_from_output(text);
        c.original->sputn(converted.data(), static_cast<std::streamsize>(converted.size()));
        c.original->pubsync();
    }
}

JsonCapture::~JsonCapture() {
    flush();
    for (auto& c : captured_) c.stream->rdbuf(c.original);
}

}  // namespace rq
