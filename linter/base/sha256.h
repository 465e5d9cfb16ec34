// SHA-256 (FIPS 180-4): the digest of the HTML report's inline script and
// style for its content security policy, and of cache keys.
#ifndef SAGELINT_LINTER_BASE_SHA256_H_
#define SAGELINT_LINTER_BASE_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sagelint {

class Sha256 {
 public:
  Sha256();
  void Update(std::string_view data);
  // The digest of everything given; the object is spent afterwards.
  std::array<std::uint8_t, 32> Finish();

 private:
  void Block(const std::uint8_t* p);
  void Blocks(const std::uint8_t* p, size_t n);  // the SHA extensions where the processor has them
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  size_t used_ = 0;
  std::uint64_t bytes_ = 0;
};

// Whether the processor's SHA instructions compute the digests (x86-64 with
// the SHA extensions); the portable code does elsewhere, and when a test asks
// for it with Sha256UsePortable (not meant for use with threads hashing).
bool Sha256Accelerated();
void Sha256UsePortable(bool portable);

// The digest of `data` as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);
// The digest of `data` in base64 (as a content security policy's 'sha256-…' wants it).
std::string Sha256Base64(std::string_view data);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_SHA256_H_
