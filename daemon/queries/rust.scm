; comP additions to tree-sitter-rust's tags.scm: precise kinds where upstream
; says "class" (struct, enum, union, type alias) or "interface" (trait), plus
; impl blocks, trait method signatures, constants, statics, fields, variants.

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(type_item
  name: (type_identifier) @name) @definition.type

(associated_type
  name: (type_identifier) @name) @definition.type

(trait_item
  name: (type_identifier) @name) @definition.trait

; An impl block is named by the implementing type, so its methods' scopes read
; Type.method.
(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    (scoped_type_identifier name: (type_identifier) @name)
    (reference_type type: (type_identifier) @name)
    (reference_type type: (generic_type type: (type_identifier) @name))
    (reference_type type: (scoped_type_identifier name: (type_identifier) @name))
    (reference_type type: (generic_type type: (scoped_type_identifier name: (type_identifier) @name)))
  ]) @definition.impl

; Other implementing types (`[T]`, `(A, B)`, `dyn Trait`) are named as written.
((impl_item
  type: (_) @name) @definition.impl
  (#not-match? @name "^(&\\s*('\\w+\\s+)?(mut\\s+)?)?[A-Za-z_][\\w:]*\\s*(<[\\s\\S]*>)?$"))

; A function is a method by being inside an impl or trait (upstream calls every
; function of a declaration_list a method, including those of a `mod`).
(function_item
  name: (identifier) @name) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

; Items only: module, impl and trait level, never a function's locals.
(source_file
  (const_item
    name: (identifier) @name) @definition.constant)

(declaration_list
  (const_item
    name: (identifier) @name) @definition.constant)

; A `static mut` is a variable, a plain `static` a constant.
((source_file
  (static_item
    name: (identifier) @name) @definition.constant)
  (#not-match? @definition.constant "^(pub(\\([^)]*\\))?\\s+)?static\\s+mut\\b"))

((declaration_list
  (static_item
    name: (identifier) @name) @definition.constant)
  (#not-match? @definition.constant "^(pub(\\([^)]*\\))?\\s+)?static\\s+mut\\b"))

((source_file
  (static_item
    name: (identifier) @name) @definition.variable)
  (#match? @definition.variable "^(pub(\\([^)]*\\))?\\s+)?static\\s+mut\\b"))

((declaration_list
  (static_item
    name: (identifier) @name) @definition.variable)
  (#match? @definition.variable "^(pub(\\([^)]*\\))?\\s+)?static\\s+mut\\b"))

(struct_item
  body: (field_declaration_list
    (field_declaration
      name: (field_identifier) @name) @definition.field))

(union_item
  body: (field_declaration_list
    (field_declaration
      name: (field_identifier) @name) @definition.field))

(enum_variant
  name: (identifier) @name) @definition.constant
