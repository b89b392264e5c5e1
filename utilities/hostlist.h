// hostlists: compact text for lists of host names (`node[0-3,5]`).
//
// Encoding follows spec/README.md "hostlist encoding": order preserving,
// consecutive numbered hosts with the same prefix collapse into ranges,
// zero padding is kept (`node[08-10]`), brackets only where needed
// (`foo4`, `foo[2,4]`, `fluke[1-10,4432,4832]`).
//
// Decoding accepts comma- (or blank-) separated terms, each either a plain
// host name (`foo4`) or `prefix[ranges]suffix` where `ranges` is a comma
// list of `N` / `N-M` (N <= M); a zero-padded low end sets the width of
// every number of its range (`p[01-03]` is p01, p02, p03).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "utilities/result.h"

namespace rq {

// decode_hostlist() refuses to expand lists longer than this; Hostlist
// itself never expands, so membership tests work for any size.
inline constexpr int64_t kMaxExpandedHosts = int64_t{1} << 20;

// Encodes `hosts` in the given order.
std::string encode_hostlist(const std::vector<std::string>& hosts);

// A parsed hostlist kept in range form, for membership tests.
class Hostlist {
public:
    // Error message: ``Invalid hostlist `<text>'``.
    static Result<Hostlist> parse(std::string_view text);

    bool contains(std::string_view host) const;
    // Number of host names the list denotes (duplicates counted).
    int64_t size() const;
    // All host names in list order; callers check size() first.
    std::vector<std::string> expand() const;

private:
    // One term of the list: `prefix` + number + `suffix` for every number
    // in [lo, hi] printed with at least `width` digits, or, when
    // `numbered` is false, the single host name `prefix`.
    struct Range {
        std::string prefix;
        std::string suffix;
        int64_t lo = 0;
        int64_t hi = 0;
        int width = 0;
        bool numbered = false;
    };
    bool range_contains(const Range& range, std::string_view host) const;

    std::vector<Range> ranges_;
};

// All host names of `text`, in list order. Errors as Hostlist::parse(),
// plus Errc::kRange for lists above kMaxExpandedHosts.
Result<std::vector<std::string>> decode_hostlist(std::string_view text);

}  // namespace rq
