// Base64 as lifecycle configuration scripts carry it.
#ifndef SAGELINT_PARSERS_COMMON_BASE64_H_
#define SAGELINT_PARSERS_COMMON_BASE64_H_

#include <string>
#include <string_view>

namespace sagelint {

// Decodes standard base64 (whitespace and padding ignored). `*ok` is false
// when a character is outside the alphabet or the text is too short to be base64.
std::string Base64Decode(std::string_view in, bool* ok);
std::string Base64Encode(std::string_view in);

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_COMMON_BASE64_H_
