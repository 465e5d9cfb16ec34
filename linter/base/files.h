// Reading and writing the files sagelint is told about, with bounds: a read
// takes regular files only and stops at a size cap (a named FIFO, device or
// /dev/zero cannot hang or exhaust memory); a write goes to a temporary file
// that replaces the target only when complete (a failed run never leaves a
// truncated report or baseline behind).
#ifndef SAGELINT_LINTER_BASE_FILES_H_
#define SAGELINT_LINTER_BASE_FILES_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace sagelint {

// Size caps of the files sagelint reads (docs/security.md lists them).
inline constexpr size_t kMaxConfigBytes = 1u << 20;         // .sagelint.yaml, policy_files
inline constexpr size_t kMaxBaselineBytes = 64u << 20;      // --baseline
inline constexpr size_t kMaxListingBytes = 256u << 20;      // --s3-listing
inline constexpr size_t kMaxPriceFileBytes = 512u << 20;    // --prices, prices: (the AWS offer file is large)
inline constexpr size_t kMaxIgnoreFileBytes = 1u << 20;     // .gitignore
inline constexpr size_t kMaxSourceBytes = 256u << 20;       // a scanned file (front ends cap lower)
inline constexpr size_t kMaxTerraformFileBytes = 4u << 20;  // a Terraform file, --var-file

// "1 MiB", "256 MiB": for messages.
std::string FormatCap(size_t bytes);

// Reads the whole of `path` into `out`. Fails, with `error` set to a reason
// that does not repeat the path ("is a directory", "not a regular file",
// "larger than 1 MiB", the system's message), unless `path` names a regular
// file (after links) of at most `max_bytes`. The cap also holds if the file
// grows while it is read.
bool ReadFileCapped(const std::string& path, size_t max_bytes, std::string* out, std::string* error);

// Writes `content` to `path`: through a temporary file in the same directory
// renamed over the target, so the target is either the old file or the whole
// new one. A symbolic link at the target is replaced, not followed. A target
// that is a device or FIFO, or any path under /dev/ or /proc/ (/dev/stdout), is
// written directly. Every write and close is checked; on failure returns false
// with `error` set to the reason.
bool WriteFileAtomic(const std::string& path, std::string_view content, std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_FILES_H_
