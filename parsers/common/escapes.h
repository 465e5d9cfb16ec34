// Backslash escapes of quoted strings (Python and HCL literals).
#ifndef SAGELINT_PARSERS_COMMON_ESCAPES_H_
#define SAGELINT_PARSERS_COMMON_ESCAPES_H_

#include <string>
#include <string_view>

namespace sagelint {

// Decodes \n \t \r \\ \' \" and a backslash-newline continuation; any other
// escape is kept as written.
std::string DecodeEscapes(std::string_view s);

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_COMMON_ESCAPES_H_
