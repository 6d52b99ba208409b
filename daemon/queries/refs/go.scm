; comP reference patterns for Go (see python.scm for the captures). A
; qualified name `pkg.Name` has the package as its receiver. Predeclared
; functions and types (len, make, string, error, ...) are left out: no
; definition in a repository can answer them.

; Calls: f(), pkg.F(), x.Method(), a.b.Method(), F[T](); a conversion T(x)
; reads as a call of T.
((call_expression function: (identifier) @call)
  (#not-any-of? @call "append" "cap" "clear" "close" "complex" "copy" "delete" "imag" "len" "make" "max" "min"
    "new" "panic" "print" "println" "real" "recover" "bool" "byte" "complex64" "complex128" "error" "float32"
    "float64" "int" "int8" "int16" "int32" "int64" "rune" "string" "uint" "uint8" "uint16" "uint32" "uint64"
    "uintptr" "any"))
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @call))

; Composite literals T{...}, &pkg.T{...}, Box[int]{...}: a construction of T.
(composite_literal type: [
  (type_identifier) @new
  (qualified_type package: (_) @receiver name: (type_identifier) @new)
  (generic_type type: (type_identifier) @new)
  (generic_type type: (qualified_type package: (_) @receiver name: (type_identifier) @new))
])

; Embedded struct fields and embedded interfaces are Go's inheritance.
(field_declaration_list (field_declaration !name type: [
  (type_identifier) @inherit
  (qualified_type package: (_) @receiver name: (type_identifier) @inherit)
  (generic_type type: (type_identifier) @inherit)
  (generic_type type: (qualified_type package: (_) @receiver name: (type_identifier) @inherit))
]))
(interface_type (type_elem . [
  (type_identifier) @inherit
  (qualified_type package: (_) @receiver name: (type_identifier) @inherit)
  (generic_type type: (type_identifier) @inherit)
  (generic_type type: (qualified_type package: (_) @receiver name: (type_identifier) @inherit))
] .))

; Type names: a qualified type anywhere (never a definition); a bare one,
; written T, *T, G[...] or *G[...], by the place it stands in. Neither a type
; declaration's own name nor a method's receiver (`func (s *Server)`, implied
; by the method's scope Server.Start) is a use.
(qualified_type package: (package_identifier) @receiver name: (type_identifier) @type)
([
  (_ parameters: (parameter_list (parameter_declaration type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])))
  (_ parameters: (parameter_list (variadic_parameter_declaration type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])))
  (_ result: (parameter_list (parameter_declaration type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])))
  (_ result: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (field_declaration type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (var_spec type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (const_spec type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (type_spec type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (type_alias type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (type_assertion_expression type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (type_conversion_expression type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (type_case type: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (slice_type element: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (array_type element: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (implicit_length_array_type element: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (map_type key: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (map_type value: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (channel_type value: [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (type_elem [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (type_constraint [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
  (parenthesized_type [(type_identifier) @type (generic_type type: (type_identifier) @type)
    (pointer_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])])
]
  (#not-any-of? @type "bool" "byte" "complex64" "complex128" "error" "float32" "float64" "int" "int8" "int16"
    "int32" "int64" "rune" "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr" "any" "comparable"))

; import "a/b"; import x "a/b"; import . "a/b" (all its names). Blank
; imports `_ "a/b"` bind nothing and are left out.
(import_spec !name path: (_) @import.module)
(import_spec name: (package_identifier) @import.alias path: (_) @import.module)
(import_spec name: (dot) @import.wildcard path: (_) @import.module)
