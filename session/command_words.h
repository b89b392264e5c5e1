// The words of resource-query's command language (spec/cli.md §5): each
// command's full name and abbreviation. Both the REPL (cli/command_table.cc
// gives each command its help and handler) and state/ (which decides by a
// command's name whether to journal it and what it changes, for lines
// typed now and for journal lines read back) need them, so they live here,
// below both.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

namespace rq {

// A command line split on whitespace: the command word, then its arguments.
using Args = std::vector<std::string>;

struct CommandWord {
    const char* name;
    const char* abbreviation;
};

// In the order `help` lists the commands.
const std::vector<CommandWord>& command_words();

// The command `word` names (its full name or its abbreviation); nullptr if
// none. (`remove` is reachable only by name or its own abbreviation "r":
// the reference gives it `j` too, which always meant attach.)
const CommandWord* find_command_word(const std::string& word);

// Whether `word` names (by full name or abbreviation) one of the commands
// whose full names are `names`.
bool is_command(const std::string& word, std::initializer_list<const char*> names);

}  // namespace rq
