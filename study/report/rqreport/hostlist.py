"""Hostlist expansion (`node[0-3,7]`, `a[1-2]b`, `p[01-03]`).

The replay's `nodes` column is written by the C++ encoder
(utilities/hostlist.h; the format: spec/README.md "hostlist encoding").
Decoding follows the same rules as its decoder: terms are separated by
commas or blanks outside brackets; a term is a plain host name or
`prefix[ranges]suffix`, `ranges` a comma list of `N` or `N-M` (N <= M);
the low end's digit count is the width every number of its range is
zero-padded to.
"""

SEPARATORS = ", \t\n"
MAX_HOSTS = 1 << 20  # as utilities/hostlist.h kMaxExpandedHosts


class HostlistError(ValueError):
    pass


def _terms(text):
    """The terms of `text`, split at separators outside brackets."""
    terms, term, in_brackets = [], "", False
    for c in text:
        if c == "[":
            if in_brackets:
                raise HostlistError(f"invalid hostlist `{text}'")
            in_brackets = True
        elif c == "]":
            if not in_brackets:
                raise HostlistError(f"invalid hostlist `{text}'")
            in_brackets = False
        if c in SEPARATORS and not in_brackets:
            if term:
                terms.append(term)
            term = ""
        else:
            term += c
    if in_brackets:
        raise HostlistError(f"invalid hostlist `{text}'")
    if term:
        terms.append(term)
    return terms


def _number(digits, text):
    if not digits or not digits.isdigit() or not digits.isascii():
        raise HostlistError(f"invalid hostlist `{text}'")
    return int(digits)


def _expand_term(term, text):
    open_at = term.find("[")
    if open_at < 0:
        return [term]
    close_at = term.index("]", open_at)
    prefix, body, suffix = term[:open_at], term[open_at + 1:close_at], term[close_at + 1:]
    if "[" in suffix or "]" in suffix:
        raise HostlistError(f"invalid hostlist `{text}'")
    hosts = []
    for element in body.split(","):
        lo_text, _, hi_text = element.partition("-")
        lo = _number(lo_text, text)
        hi = _number(hi_text, text) if hi_text or element.endswith("-") else lo
        if lo > hi:
            raise HostlistError(f"invalid hostlist `{text}'")
        if len(hosts) + hi - lo + 1 > MAX_HOSTS:
            raise HostlistError(f"hostlist `{text[:40]}' names more than {MAX_HOSTS} hosts")
        width = len(lo_text)
        hosts.extend(f"{prefix}{n:0{width}d}{suffix}" for n in range(lo, hi + 1))
    return hosts


def expand(text):
    """All host names of `text` in list order; [] for an empty text."""
    hosts = []
    for term in _terms(text):
        hosts.extend(_expand_term(term, text))
        if len(hosts) > MAX_HOSTS:
            raise HostlistError(f"hostlist `{text[:40]}' names more than {MAX_HOSTS} hosts")
    return hosts


def natural_key(host):
    """Sort key: `node2` before `node10` (digit runs compare as numbers)."""
    key, digits, rest = [], "", ""
    for c in host:
        if c.isdigit():
            if rest:
                key.append((1, rest, 0))
                rest = ""
            digits += c
        else:
            if digits:
                key.append((0, "", int(digits)))
                digits = ""
            rest += c
    if digits:
        key.append((0, "", int(digits)))
    if rest:
        key.append((1, rest, 0))
    return key
