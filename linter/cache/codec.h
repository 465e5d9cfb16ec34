// The byte form of what the cache of parsed results keeps (README "Large
// repositories"): a front end's FileResult with its workloads, every field
// written, read back exactly. Reading never trusts the bytes: a count or a
// length past the end, an enum value out of range or a nesting too deep makes
// the whole entry unreadable (a miss), never a crash or a wrong model.
#ifndef SAGELINT_LINTER_CACHE_CODEC_H_
#define SAGELINT_LINTER_CACHE_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint::cache {

class Writer {
 public:
  void U8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(std::uint32_t v);
  void U64(std::uint64_t v);
  void I32(std::int32_t v) { U32(static_cast<std::uint32_t>(v)); }
  void Bool(bool v) { U8(v ? 1 : 0); }
  void Str(std::string_view s);
  void Raw(std::string_view s) { out_.append(s); }
  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  std::uint8_t U8();
  std::uint32_t U32();
  std::uint64_t U64();
  std::int32_t I32() { return static_cast<std::int32_t>(U32()); }
  bool Bool();
  std::string Str();
  std::string_view Raw(size_t n);
  // A count of items each at least `min_bytes` long: 0 (and failed) when the rest cannot hold them.
  std::uint32_t Count(size_t min_bytes = 1);
  // An enum stored as a byte: its value when below `count`, else failed.
  std::uint8_t Enum(std::uint8_t count);
  void Fail() { ok_ = false; }
  bool ok() const { return ok_; }
  bool done() const { return ok_ && in_.empty(); }

 private:
  bool Need(size_t n);
  std::string_view in_;
  bool ok_ = true;
};

void PutFileResult(Writer& w, const FileResult& r);
// False when the bytes are not a FileResult (`r` is then partly filled).
bool GetFileResult(Reader& in, FileResult* r);

// The fields of each model struct the codec writes, for the test that fails
// when a struct gains a field the codec does not carry.
inline constexpr size_t kCodecValFields = 8;
inline constexpr size_t kCodecWorkloadFields = 56;
inline constexpr size_t kCodecFileResultFields = 10;
inline constexpr size_t kCodecChannelFields = 9;
inline constexpr size_t kCodecStudioAppFields = 6;
inline constexpr size_t kCodecInstanceGroupFields = 4;
inline constexpr size_t kCodecIamStatementFields = 11;
inline constexpr size_t kCodecIamConditionFields = 4;
inline constexpr size_t kCodecModuleCallerFields = 3;
inline constexpr size_t kCodecModuleCallerValueFields = 3;
inline constexpr size_t kCodecSourceRangeFields = 4;
inline constexpr size_t kCodecConstructMemberFields = 4;
inline constexpr size_t kCodecParseErrorFields = 4;

}  // namespace sagelint::cache

#endif  // SAGELINT_LINTER_CACHE_CODEC_H_
