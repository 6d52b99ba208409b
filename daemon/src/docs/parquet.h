// docs/parquet: the schema of a Parquet file from its footer alone (the
// file's last 8 bytes give the footer's length; the footer is Thrift compact
// protocol FileMetaData). No page is read, so a multi-GB file costs one small
// read. Internal to docs/: callers use docs::extract / extract_file.
//
// Hostile footers are bounded: the footer must lie inside the file and within
// Limits::max_file_bytes; Thrift decodes it with its message size, string
// sizes and list lengths capped (no list may claim more elements than the
// footer has bytes, nor more than kMaxListElements); the schema tree is
// rebuilt from num_children without recursion, at most kMaxSchemaDepth deep;
// the names and signatures produced stop at Limits::max_text_bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docs/document.h"

namespace comp::docs {

inline constexpr std::uint32_t kMaxListElements = 1u << 18;  // schema elements, row groups, key-values, ...
inline constexpr std::size_t kMaxSchemaDepth = 64;
inline constexpr std::size_t kMaxMetadataValueBytes = 500;  // of a key-value metadata value in the text

// One SchemaElement, as stored (depth-first; element 0 is the root).
struct ParquetField {
  std::string name;
  std::string path;  // dotted from the root's children ("customer.address.zip"); empty for the root
  int depth = 0;     // 0 = root, 1 = a top-level column
  std::optional<std::int32_t> type, type_length, repetition, num_children, converted_type, scale, precision,
      field_id;
  std::string logical_type;  // "TIMESTAMP(MILLIS, UTC)", "DECIMAL(18, 3)", ... or empty
};

// What the footer says.
struct ParquetFooter {
  std::int32_t version = 0;
  std::int64_t num_rows = 0;
  std::size_t row_groups = 0;
  std::string created_by;
  bool encrypted_columns = false;  // encrypted file with a plaintext footer
  std::vector<std::pair<std::string, std::string>> key_value_metadata;  // values not truncated
  std::vector<ParquetField> fields;  // the schema elements reached from the root, depth-first
};

// The footer of a whole file's bytes (or of its tail: `bytes` are the last
// bytes.size() bytes of a file of `file_size` bytes). Sets skip_reason (and
// returns nullopt) when the footer cannot be read; problems that leave the
// schema usable (children missing, elements left over) go into errors.
std::optional<ParquetFooter> read_parquet_footer(std::string_view bytes, std::uint64_t file_size,
                                                 const Limits& limits, std::string& skip_reason,
                                                 std::vector<std::string>& errors);

// "INT64", "FIXED_LEN_BYTE_ARRAY(16)", "group"; "required", "optional", ...;
// the converted type's name ("UTF8", "DECIMAL(9, 2)", ...).
std::string parquet_physical_type(const ParquetField& field);
std::string parquet_repetition(std::int32_t repetition);
std::string parquet_converted_type(const ParquetField& field);
// A column's signature: physical type, logical (else converted) type,
// repetition: "INT64 TIMESTAMP(MILLIS, UTC) optional", "group LIST optional".
std::string parquet_signature(const ParquetField& field);

// How many bytes at the end of a file of `file_size` bytes hold the footer,
// its length and the magic, given the file's last 8 bytes (footer length +
// "PAR1"); last8.size() when they do not announce a footer that is inside the
// file and within limits (extract_parquet then says why).
std::uint64_t parquet_tail_size(std::string_view last8, std::uint64_t file_size, const Limits& limits);

// The Document of a Parquet file: `head` is the file's start (at least its
// first 4 bytes, or all there is), `tail` its last tail.size() bytes, the
// file has `file_size` bytes. For a whole file in memory pass its bytes as
// both head and tail.
Document extract_parquet(std::string_view head, std::string_view tail, std::uint64_t file_size,
                         const Limits& limits);

}  // namespace comp::docs
