// A JSON document's shape, checked in one streaming pass before it is built:
// how deep it nests and whether an object names a key twice. A hostile
// document (64 MiB of `[`) is refused in milliseconds instead of building a
// tree many times its size, and a duplicate key is an error instead of
// silently keeping one of the values.
#ifndef SAGELINT_LINTER_BASE_JSON_SHAPE_H_
#define SAGELINT_LINTER_BASE_JSON_SHAPE_H_

#include <string>
#include <string_view>

namespace sagelint {

// False, with `error` set ("nested deeper than 64 levels at findings[0]",
// "duplicate key \"fingerprint\" in findings[3]"), when `text` nests deeper
// than `max_depth` or, with `unique_keys`, repeats a key in one object. Text
// that is not JSON passes: the parser that reads it reports its errors.
bool CheckJsonShape(std::string_view text, int max_depth, bool unique_keys, std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_JSON_SHAPE_H_
