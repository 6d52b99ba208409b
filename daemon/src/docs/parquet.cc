#include "docs/parquet.h"

#include <thrift/TConfiguration.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>

#include "parquet_types.h"

namespace comp::docs {
namespace {

namespace pf = comp::docs::parquet_format;

constexpr std::string_view kMagic = "PAR1";
constexpr std::string_view kEncryptedMagic = "PARE";
// "PAR1" + footer + 4-byte length + "PAR1": the smallest file that can hold a footer.
constexpr std::uint64_t kMinFileSize = 12;

std::uint32_t little_endian32(std::string_view bytes) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  return value;
}

std::string_view last(std::string_view bytes, std::size_t n) { return bytes.substr(bytes.size() - n); }

std::string unit_name(const pf::TimeUnit& unit) {
  if (unit.__isset.MILLIS) return "MILLIS";
  if (unit.__isset.MICROS) return "MICROS";
  if (unit.__isset.NANOS) return "NANOS";
  return "?";
}

// Parameters that a timestamp or time type carries: "(MILLIS, UTC)".
template <typename TimeLike>
std::string time_parameters(const TimeLike& t) {
  std::string s = "(" + (t.__isset.unit ? unit_name(t.unit) : std::string("?"));
  if (t.__isset.isAdjustedToUTC) s += t.isAdjustedToUTC ? ", UTC" : ", local";
  return s + ")";
}

std::string logical_type_name(const pf::LogicalType& t) {
  const auto& is = t.__isset;
  if (is.STRING) return "STRING";
  if (is.MAP) return "MAP";
  if (is.LIST) return "LIST";
  if (is.ENUM) return "ENUM";
  if (is.DECIMAL) {
    return "DECIMAL(" + (t.DECIMAL.__isset.precision ? std::to_string(t.DECIMAL.precision) : std::string("?")) +
           ", " + (t.DECIMAL.__isset.scale ? std::to_string(t.DECIMAL.scale) : std::string("?")) + ")";
  }
  if (is.DATE) return "DATE";
  if (is.TIME) return "TIME" + time_parameters(t.TIME);
  if (is.TIMESTAMP) return "TIMESTAMP" + time_parameters(t.TIMESTAMP);
  if (is.INTEGER) {
    std::string s = "INTEGER(" + (t.INTEGER.__isset.bitWidth ? std::to_string(t.INTEGER.bitWidth) : std::string("?"));
    if (t.INTEGER.__isset.isSigned) s += t.INTEGER.isSigned ? ", signed" : ", unsigned";
    return s + ")";
  }
  if (is.UNKNOWN) return "UNKNOWN";
  if (is.JSON) return "JSON";
  if (is.BSON) return "BSON";
  if (is.UUID) return "UUID";
  if (is.FLOAT16) return "FLOAT16";
  if (is.VARIANT) return "VARIANT";
  if (is.GEOMETRY) return "GEOMETRY";
  if (is.GEOGRAPHY) return "GEOGRAPHY";
  if (is.VECTOR) return "VECTOR";
  return "";  // a logical type newer than this reader: the converted type (if any) stands in
}

template <typename T>
std::optional<T> optional_of(bool isset, T value) {
  return isset ? std::optional<T>(value) : std::nullopt;
}

ParquetField field_of(const pf::SchemaElement& e) {
  ParquetField f;
  f.name = e.name;
  f.type = optional_of(e.__isset.type, e.type);
  f.type_length = optional_of(e.__isset.type_length, e.type_length);
  f.repetition = optional_of(e.__isset.repetition_type, e.repetition_type);
  f.num_children = optional_of(e.__isset.num_children, e.num_children);
  f.converted_type = optional_of(e.__isset.converted_type, e.converted_type);
  f.scale = optional_of(e.__isset.scale, e.scale);
  f.precision = optional_of(e.__isset.precision, e.precision);
  f.field_id = optional_of(e.__isset.field_id, e.field_id);
  if (e.__isset.logicalType) f.logical_type = logical_type_name(e.logicalType);
  return f;
}

// Rebuilds paths and depths from the depth-first list and num_children,
// without recursion. A hostile list cannot loop (each step consumes an
// element) but may claim more children than there are, negative counts, or
// a nesting deep enough to make paths quadratic: all bounded here.
std::vector<ParquetField> schema_tree(const std::vector<pf::SchemaElement>& schema, const Limits& limits,
                                      std::vector<std::string>& errors) {
  std::vector<ParquetField> fields;
  if (schema.empty()) return fields;
  struct Frame {
    std::int64_t remaining;
    std::size_t field;  // index in `fields` of the group
  };
  auto children_of = [&](ParquetField& f) -> std::int64_t {
    if (!f.num_children) return 0;
    if (*f.num_children < 0) {
      errors.push_back("schema element '" + f.name + "' has a negative num_children (" +
                       std::to_string(*f.num_children) + ")");
      return 0;
    }
    return *f.num_children;
  };
  fields.push_back(field_of(schema[0]));
  std::vector<Frame> stack = {{children_of(fields[0]), 0}};
  std::uint64_t produced = 0;  // bytes of names and paths, bounded like the text they become
  std::size_t next = 1;
  while (next < schema.size() && !stack.empty()) {
    if (stack.back().remaining == 0) {
      stack.pop_back();
      continue;
    }
    --stack.back().remaining;
    const ParquetField& parent = fields[stack.back().field];
    ParquetField f = field_of(schema[next++]);
    f.depth = static_cast<int>(stack.size());
    f.path = parent.depth == 0 ? f.name : parent.path + "." + f.name;
    produced += f.path.size() + f.name.size() + 64;
    if (produced > limits.max_text_bytes) {
      errors.push_back("Parquet schema listing stopped at " + std::to_string(fields.size() - 1) + " of " +
                       std::to_string(schema.size() - 1) + " fields (max_text_bytes)");
      return fields;
    }
    const std::int64_t children = children_of(f);
    fields.push_back(std::move(f));
    if (children > 0) {
      if (stack.size() >= kMaxSchemaDepth) {
        errors.push_back("Parquet schema nested deeper than " + std::to_string(kMaxSchemaDepth) +
                         " levels: the rest of the schema is left out");
        return fields;
      }
      stack.push_back({children, fields.size() - 1});
    }
  }
  std::int64_t missing = 0;
  for (const Frame& frame : stack) missing += frame.remaining;
  if (missing > 0) {
    errors.push_back("Parquet schema truncated: " + std::to_string(missing) + " declared children missing");
  }
  if (next < schema.size()) {
    errors.push_back("Parquet schema: " + std::to_string(schema.size() - next) +
                     " elements after the root's last child ignored");
  }
  return fields;
}

// At most `max` bytes of `s`, cut at a UTF-8 boundary, newlines made spaces.
std::string one_line(std::string_view s, std::size_t max) {
  bool cut = false;
  if (s.size() > max) {
    std::size_t end = max;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    s = s.substr(0, end);
    cut = true;
  }
  std::string out(s);
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  if (cut) out += "\u2026";
  return out;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace

std::string parquet_physical_type(const ParquetField& field) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  if (!field.type) return "group";
  const std::int32_t t = *field.type;
  if (t < 0 || t >= static_cast<std::int32_t>(kNames.size())) return "type(" + std::to_string(t) + ")";
  std::string name(kNames[static_cast<std::size_t>(t)]);
  if (t == 7 && field.type_length) name += "(" + std::to_string(*field.type_length) + ")";
  return name;
}

std::string parquet_repetition(std::int32_t repetition) {
  switch (repetition) {
    case 0: return "required";
    case 1: return "optional";
    case 2: return "repeated";
    case 3: return "vector";
    default: return "repetition(" + std::to_string(repetition) + ")";
  }
}

std::string parquet_converted_type(const ParquetField& field) {
  static constexpr std::array<std::string_view, 22> kNames = {
      "UTF8",         "MAP",          "MAP_KEY_VALUE",    "LIST",             "ENUM",   "DECIMAL",
      "DATE",         "TIME_MILLIS",  "TIME_MICROS",      "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS",
      "UINT_8",       "UINT_16",      "UINT_32",          "UINT_64",          "INT_8",  "INT_16",
      "INT_32",       "INT_64",       "JSON",             "BSON",             "INTERVAL"};
  if (!field.converted_type) return "";
  const std::int32_t c = *field.converted_type;
  if (c < 0 || c >= static_cast<std::int32_t>(kNames.size())) return "converted_type(" + std::to_string(c) + ")";
  std::string name(kNames[static_cast<std::size_t>(c)]);
  if (c == 5 && field.precision && field.scale) {
    name += "(" + std::to_string(*field.precision) + ", " + std::to_string(*field.scale) + ")";
  }
  return name;
}

std::string parquet_signature(const ParquetField& field) {
  std::string s = parquet_physical_type(field);
  const std::string annotation = field.logical_type.empty() ? parquet_converted_type(field) : field.logical_type;
  if (!annotation.empty()) s += " " + annotation;
  if (field.repetition) s += " " + parquet_repetition(*field.repetition);
  if (field.field_id) s += ", field_id " + std::to_string(*field.field_id);
  return s;
}

std::uint64_t parquet_tail_size(std::string_view last8, std::uint64_t file_size, const Limits& limits) {
  if (last8.size() < 8 || file_size < kMinFileSize || last(last8, 4) != kMagic) return last8.size();
  const std::uint64_t footer = little_endian32(last8.substr(last8.size() - 8, 4));
  if (footer == 0 || footer + kMinFileSize > file_size || footer > limits.max_file_bytes) return last8.size();
  return footer + 8;
}

std::optional<ParquetFooter> read_parquet_footer(std::string_view bytes, std::uint64_t file_size,
                                                 const Limits& limits, std::string& skip_reason,
                                                 std::vector<std::string>& errors) {
  if (file_size < kMinFileSize || bytes.size() < 8) {
    skip_reason = "not a Parquet file: " + plural(file_size, "byte", "bytes") + " is too short";
    return std::nullopt;
  }
  const std::string_view magic = last(bytes, 4);
  if (magic == kEncryptedMagic) {
    skip_reason = "encrypted Parquet footer";
    return std::nullopt;
  }
  if (magic != kMagic) {
    skip_reason = "not a Parquet file: no PAR1 magic at the end";
    return std::nullopt;
  }
  const std::uint64_t footer_size = little_endian32(bytes.substr(bytes.size() - 8, 4));
  if (footer_size == 0) {
    skip_reason = "corrupt Parquet file: empty footer";
    return std::nullopt;
  }
  if (footer_size + kMinFileSize > file_size) {
    skip_reason = "corrupt Parquet file: footer length " + std::to_string(footer_size) + " outside the file (" +
                  plural(file_size, "byte", "bytes") + ")";
    return std::nullopt;
  }
  if (footer_size > limits.max_file_bytes || footer_size > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    skip_reason = "Parquet footer too large (" + plural(footer_size, "byte", "bytes") + ")";
    return std::nullopt;
  }
  if (bytes.size() < footer_size + 8) {
    skip_reason = "Parquet footer not read (" + std::to_string(bytes.size()) + " of " +
                  std::to_string(footer_size + 8) + " tail bytes)";
    return std::nullopt;
  }
  const std::string_view footer = bytes.substr(bytes.size() - 8 - footer_size, footer_size);

  pf::FileMetaData meta;
  try {
    namespace transport = apache::thrift::transport;
    namespace protocol = apache::thrift::protocol;
    const int size = static_cast<int>(footer_size);
    // The footer is the whole message: nothing may claim more bytes (strings,
    // lists) than it holds, and nesting stops at Thrift's default depth (64).
    auto config = std::make_shared<apache::thrift::TConfiguration>(size, size);
    // OBSERVE: Thrift reads the caller's bytes in place and never writes them.
    auto buffer = std::make_shared<transport::TMemoryBuffer>(
        reinterpret_cast<std::uint8_t*>(const_cast<char*>(footer.data())), static_cast<std::uint32_t>(size),
        transport::TMemoryBuffer::OBSERVE, config);
    protocol::TCompactProtocolT<transport::TMemoryBuffer> reader(
        buffer, size, static_cast<std::int32_t>(std::min<std::uint64_t>(footer_size, kMaxListElements)));
    meta.read(&reader);
  } catch (const std::exception& e) {
    skip_reason = std::string("corrupt Parquet footer: ") + e.what();
    return std::nullopt;
  }
  if (meta.schema.empty()) {
    skip_reason = "corrupt Parquet footer: no schema";
    return std::nullopt;
  }

  ParquetFooter result;
  result.version = meta.version;
  result.num_rows = meta.num_rows;
  result.row_groups = meta.row_groups.size();
  result.created_by = meta.created_by;
  result.encrypted_columns = meta.__isset.encryption_algorithm;
  result.key_value_metadata.reserve(meta.key_value_metadata.size());
  for (auto& kv : meta.key_value_metadata) result.key_value_metadata.emplace_back(std::move(kv.key), std::move(kv.value));
  result.fields = schema_tree(meta.schema, limits, errors);
  return result;
}

Document extract_parquet(std::string_view head, std::string_view tail, std::uint64_t file_size,
                         const Limits& limits) {
  Document doc;
  doc.format = Format::kParquet;
  try {
    // An encrypted footer says so at the end (and "PARE" at the start): name it first.
    if (!(tail.size() >= 4 && last(tail, 4) == kEncryptedMagic) && file_size >= kMinFileSize &&
        head.substr(0, 4) != kMagic) {
      doc.skip_reason = "not a Parquet file: no PAR1 magic at the start";
      return doc;
    }
    std::optional<ParquetFooter> footer = read_parquet_footer(tail, file_size, limits, doc.skip_reason, doc.errors);
    if (!footer) return doc;

    std::size_t columns = 0, leaves = 0;
    for (std::size_t i = 1; i < footer->fields.size(); ++i) {
      const ParquetField& f = footer->fields[i];
      if (f.depth == 1) ++columns;
      if (!f.num_children || *f.num_children <= 0) ++leaves;
    }
    Section schema;
    schema.kind = "schema";
    schema.name = "schema";
    schema.signature = plural(static_cast<std::uint64_t>(std::max<std::int64_t>(footer->num_rows, 0)), "row", "rows") +
                       ", " + plural(footer->row_groups, "row group", "row groups") + ", " +
                       plural(columns, "column", "columns");
    if (leaves != columns) schema.signature += " (" + plural(leaves, "leaf column", "leaf columns") + ")";
    if (!footer->created_by.empty()) schema.signature += ", created_by " + one_line(footer->created_by, 200);
    if (footer->encrypted_columns) schema.signature += ", encrypted columns";
    std::uint64_t budget = limits.max_text_bytes;
    for (const auto& [key, value] : footer->key_value_metadata) {
      // The Arrow schema is a base64 blob: its bytes would only pollute search.
      std::string line = one_line(key, kMaxMetadataValueBytes) + ": " +
                         (key == "ARROW:schema" ? "(" + plural(value.size(), "byte", "bytes") + " of base64 Arrow schema)"
                                                : one_line(value, kMaxMetadataValueBytes));
      if (line.size() + 1 > budget) {
        doc.errors.push_back("Parquet key-value metadata cut at max_text_bytes");
        break;
      }
      budget -= line.size() + 1;
      schema.text += line;
      schema.text += '\n';
    }
    if (!schema.text.empty()) schema.text.pop_back();
    doc.sections.push_back(std::move(schema));

    for (std::size_t i = 1; i < footer->fields.size(); ++i) {
      ParquetField& f = footer->fields[i];
      Section column;
      column.kind = "column";
      column.name = std::move(f.path);
      column.signature = parquet_signature(f);
      column.level = f.depth;
      doc.sections.push_back(std::move(column));
    }
  } catch (const std::exception& e) {  // bad_alloc and the like: never out of extract
    doc.sections.clear();
    doc.skip_reason = std::string("Parquet footer unreadable: ") + e.what();
  }
  return doc;
}

}  // namespace comp::docs
