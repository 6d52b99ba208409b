// The part of Apache Parquet's footer (FileMetaData) that comP reads: the
// schema, row and row group counts, key-value metadata, created_by.
//
// Field ids are the official ones of apache/parquet-format's
// src/main/thrift/parquet.thrift (format 2.12); they are the wire format and
// must never change. Everything else is left out: the compact protocol skips
// fields a struct does not declare, so statistics, column chunk metadata,
// column orders and encryption details cost no memory. Every field is
// optional here (some are `required` upstream) so that a footer missing one
// still decodes; the reader checks what it needs. Enums are read as i32 so an
// unknown value stays a number instead of an out-of-range C++ enum.
namespace cpp comp.docs.parquet_format

// Logical type annotations (empty unless they carry parameters).
struct StringType {}
struct UUIDType {}
struct MapType {}
struct ListType {}
struct EnumType {}
struct DateType {}
struct Float16Type {}
struct NullType {}
struct JsonType {}
struct BsonType {}
struct VectorType {}

struct DecimalType {
  1: optional i32 scale
  2: optional i32 precision
}

struct MilliSeconds {}
struct MicroSeconds {}
struct NanoSeconds {}
union TimeUnit {
  1: MilliSeconds MILLIS
  2: MicroSeconds MICROS
  3: NanoSeconds NANOS
}

struct TimestampType {
  1: optional bool isAdjustedToUTC
  2: optional TimeUnit unit
}

struct TimeType {
  1: optional bool isAdjustedToUTC
  2: optional TimeUnit unit
}

struct IntType {
  1: optional i8 bitWidth
  2: optional bool isSigned
}

struct VariantType {
  1: optional i8 specification_version
}

struct GeometryType {
  1: optional string crs
}

struct GeographyType {
  1: optional string crs
  2: optional i32 algorithm    // EdgeInterpolationAlgorithm
}

union LogicalType {
  1:  StringType STRING
  2:  MapType MAP
  3:  ListType LIST
  4:  EnumType ENUM
  5:  DecimalType DECIMAL
  6:  DateType DATE
  7:  TimeType TIME
  8:  TimestampType TIMESTAMP
  // 9: reserved for INTERVAL
  10: IntType INTEGER
  11: NullType UNKNOWN
  12: JsonType JSON
  13: BsonType BSON
  14: UUIDType UUID
  15: Float16Type FLOAT16
  16: VariantType VARIANT
  17: GeometryType GEOMETRY
  18: GeographyType GEOGRAPHY
  19: VectorType VECTOR
}

struct SchemaElement {
  1: optional i32 type             // Type: BOOLEAN 0 ... FIXED_LEN_BYTE_ARRAY 7
  2: optional i32 type_length
  3: optional i32 repetition_type  // FieldRepetitionType: REQUIRED 0, OPTIONAL 1, REPEATED 2, VECTOR 3
  4: optional string name
  5: optional i32 num_children
  6: optional i32 converted_type   // ConvertedType: UTF8 0 ... INTERVAL 21
  7: optional i32 scale
  8: optional i32 precision
  9: optional i32 field_id
  10: optional LogicalType logicalType
  11: optional i32 vector_length
}

struct KeyValue {
  1: optional string key
  2: optional string value
}

// Only counted: its fields (file_path, meta_data, ...) are skipped.
struct ColumnChunk {}

struct RowGroup {
  1: optional list<ColumnChunk> columns
  2: optional i64 total_byte_size
  3: optional i64 num_rows
}

// Present only in files with encrypted columns and a plaintext footer; the
// algorithms' parameters are skipped.
struct AesGcmV1 {}
struct AesGcmCtrV1 {}
union EncryptionAlgorithm {
  1: AesGcmV1 AES_GCM_V1
  2: AesGcmCtrV1 AES_GCM_CTR_V1
}

struct FileMetaData {
  1: optional i32 version
  2: optional list<SchemaElement> schema
  3: optional i64 num_rows
  4: optional list<RowGroup> row_groups
  5: optional list<KeyValue> key_value_metadata
  6: optional string created_by
  8: optional EncryptionAlgorithm encryption_algorithm
}
