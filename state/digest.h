// 64-bit FNV-1a over length-prefixed fields: the state file's checksums.
// Cheap, stable across builds, and enough to tell damaged rows from the
// ones written (this guards against accidents, not against forgery).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace rq::state {

class Digest {
public:
    explicit Digest(uint64_t start = 14695981039346656037ull) : h_(start) {}
    Digest& add(std::string_view data) {
        add_number(data.size());
        for (unsigned char c : data) h_ = (h_ ^ c) * 1099511628211ull;
        return *this;
    }
    Digest& add_number(uint64_t n) {
        for (int i = 0; i < 8; ++i) h_ = (h_ ^ ((n >> (8 * i)) & 0xff)) * 1099511628211ull;
        return *this;
    }
    uint64_t value() const { return h_; }

private:
    uint64_t h_;
};

inline std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace rq::state
