#include "linter/base/sha256.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace sagelint {
namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

std::uint32_t Rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

bool use_portable = false;  // Sha256UsePortable

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The x86 SHA extensions (Intel SHA-NI, AMD Zen): the same compression with
// four rounds per two instructions; the cache hashes every file a warm scan
// checks, so this is most of its time otherwise. The message schedule is
// computed in groups of four words: X[i] = msg2(msg1(X[i-4], X[i-3]) +
// X[i-2..i-1] shifted by a word, X[i-1]).
__attribute__((target("sha,sse4.1,ssse3"))) void BlocksShaNi(std::uint32_t* h, const std::uint8_t* p, size_t blocks) {
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h)), 0xB1);         // CDAB
  __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4)), 0x1B);  // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);                                                    // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);                                                         // CDGH
  for (; blocks > 0; --blocks, p += 64) {
    const __m128i abef = state0, cdgh = state1;
    __m128i x[4];
    for (int i = 0; i < 16; ++i) {
      __m128i& xi = x[i % 4];
      if (i < 4) {
        xi = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i)), swap);
      } else {
        __m128i t = _mm_sha256msg1_epu32(xi, x[(i - 3) % 4]);
        t = _mm_add_epi32(t, _mm_alignr_epi8(x[(i - 1) % 4], x[(i - 2) % 4], 4));
        xi = _mm_sha256msg2_epu32(t, x[(i - 1) % 4]);
      }
      __m128i msg = _mm_add_epi32(xi, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound + 4 * i)));
      state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
      state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(msg, 0x0E));
    }
    state0 = _mm_add_epi32(state0, abef);
    state1 = _mm_add_epi32(state1, cdgh);
  }
  tmp = _mm_shuffle_epi32(state0, 0x1B);        // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);     // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);     // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), state1);
}

bool HasShaNi() {
  static const bool has = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    bool sse41 = (c & (1u << 19)) != 0, ssse3 = (c & (1u << 9)) != 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return sse41 && ssse3 && (b & (1u << 29)) != 0;
  }();
  return has;
}
#else
bool HasShaNi() { return false; }
void BlocksShaNi(std::uint32_t*, const std::uint8_t*, size_t) {}
#endif

}  // namespace

bool Sha256Accelerated() { return HasShaNi() && !use_portable; }
void Sha256UsePortable(bool portable) { use_portable = portable; }

Sha256::Sha256() : h_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::Blocks(const std::uint8_t* p, size_t n) {
  if (Sha256Accelerated()) {
    BlocksShaNi(h_.data(), p, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) Block(p + 64 * i);
}

void Sha256::Block(const std::uint8_t* p) {
  std::uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = std::uint32_t{p[4 * i]} << 24 | std::uint32_t{p[4 * i + 1]} << 16 | std::uint32_t{p[4 * i + 2]} << 8 |
           std::uint32_t{p[4 * i + 3]};
  }
  for (int i = 16; i < 64; ++i) {
    std::uint32_t s0 = Rotr(w[i - 15], 7) ^ Rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    std::uint32_t s1 = Rotr(w[i - 2], 17) ^ Rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
  for (int i = 0; i < 64; ++i) {
    std::uint32_t t1 = h + (Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[i] + w[i];
    std::uint32_t t2 = (Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
  h_[4] += e;
  h_[5] += f;
  h_[6] += g;
  h_[7] += h;
}

void Sha256::Update(std::string_view data) {
  bytes_ += data.size();
  const auto* p = reinterpret_cast<const std::uint8_t*>(data.data());
  size_t n = data.size();
  while (n > 0) {
    if (used_ == 0 && n >= buf_.size()) {  // whole blocks straight from the input
      size_t blocks = n / buf_.size();
      Blocks(p, blocks);
      p += blocks * buf_.size();
      n -= blocks * buf_.size();
      continue;
    }
    size_t take = std::min(n, buf_.size() - used_);
    std::memcpy(buf_.data() + used_, p, take);
    used_ += take;
    p += take;
    n -= take;
    if (used_ == buf_.size()) {
      Blocks(buf_.data(), 1);
      used_ = 0;
    }
  }
}

std::array<std::uint8_t, 32> Sha256::Finish() {
  std::uint64_t bits = bytes_ * 8;
  Update(std::string_view("\x80", 1));
  while (used_ != 56) Update(std::string_view("\0", 1));
  char length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<char>(bits >> (56 - 8 * i));
  Update(std::string_view(length, 8));
  std::array<std::uint8_t, 32> out;
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(h_[i] >> (24 - 8 * j));
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  Sha256 h;
  h.Update(data);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : h.Finish()) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string Sha256Base64(std::string_view data) {
  Sha256 h;
  h.Update(data);
  std::array<std::uint8_t, 32> d = h.Finish();
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < d.size(); i += 3) {
    std::uint32_t v = std::uint32_t{d[i]} << 16;
    if (i + 1 < d.size()) v |= std::uint32_t{d[i + 1]} << 8;
    if (i + 2 < d.size()) v |= d[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < d.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < d.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

}  // namespace sagelint
