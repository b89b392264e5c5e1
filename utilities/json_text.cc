#include "utilities/json_text.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace rq {
namespace {

// jansson prints reals with "%.17g", makes sure the text still reads back
// as a real (appends ".0" when there is neither '.' nor an exponent) and
// drops the '+' and leading zeros of the exponent ("1e+20" -> "1e20").
void append_real(std::string& out, double value) {
    if (!std::isfinite(value)) {  // not representable in JSON
        out += "null";
        return;
    }
    // to_chars, not snprintf: the C locale's decimal point is process-wide
    // state a library's host may change (LC_NUMERIC=de_DE writes "0,5").
    char buffer[64];
    auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17).ptr;
    std::string text(buffer, end);
    size_t exponent = text.find('e');
    if (exponent == std::string::npos) {
        if (text.find('.') == std::string::npos) text += ".0";
    } else {
        size_t digits = exponent + 1;
        if (digits < text.size() && text[digits] == '+') text.erase(digits, 1);
        if (digits < text.size() && text[digits] == '-') ++digits;
        size_t first_nonzero = digits;
        while (first_nonzero + 1 < text.size() && text[first_nonzero] == '0') ++first_nonzero;
        text.erase(digits, first_nonzero - digits);
    }
    out += text;
}

void append_value(std::string& out, const nlohmann::ordered_json& value) {
    using Type = nlohmann::ordered_json::value_t;
    switch (value.type()) {
    case Type::object: {
        out += '{';
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (!first) out += ", ";
            first = false;
            append_json_string(out, it.key());
            out += ": ";
            append_value(out, it.value());
        }
        out += '}';
        return;
    }
    case Type::array: {
        out += '[';
        bool first = true;
        for (const auto& element : value) {
            if (!first) out += ", ";
            first = false;
            append_value(out, element);
        }
        out += ']';
        return;
    }
    case Type::string:
        append_json_string(out, value.get_ref<const std::string&>());
        return;
    case Type::boolean:
        out += value.get<bool>() ? "true" : "false";
        return;
    case Type::number_integer:
        out += std::to_string(value.get<int64_t>());
        return;
    case Type::number_unsigned:
        out += std::to_string(value.get<uint64_t>());
        return;
    case Type::number_float:
        append_real(out, value.get<double>());
        return;
    case Type::binary: {  // not produced by the tool; printed as a byte array
        out += '[';
        bool first = true;
        for (uint8_t byte : value.get_binary()) {
            if (!first) out += ", ";
            first = false;
            out += std::to_string(byte);
        }
        out += ']';
        return;
    }
    case Type::null:
    case Type::discarded:
        out += "null";
        return;
    }
}

}  // namespace

void append_json_string(std::string& out, const std::string& text) {
    static const char kHex[] = "0123456789ABCDEF";
    out += '"';
    for (char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default: {
            auto byte = static_cast<unsigned char>(c);
            if (byte < 0x20) {
                out += "\\u00";
                out += kHex[byte >> 4];
                out += kHex[byte & 0xF];
            } else {
                out += c;  // includes '/', DEL and UTF-8 bytes, unchanged
            }
        }
        }
    }
    out += '"';
}

std::string json_text(const nlohmann::ordered_json& value) {
    std::string out;
    append_value(out, value);
    return out;
}

}  // namespace rq
