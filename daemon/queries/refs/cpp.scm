; comP reference patterns for C++ (see python.scm for the captures; c.scm's
; patterns are repeated here, C++'s grammar being its own). A qualified name
; `a::b::f` has its innermost scope as the receiver ("b": the grammar nests
; qualified names to the right and a match has one receiver); a template
; scope `Foo<T>::f` reads as "Foo".

; Calls: f(), f<T>(), obj.f(), p->f(), obj.template f<T>(), ns::f(),
; a::b::f(), Foo<T>::f(), ::f(). The named casts are no calls.
((call_expression function: [
  (identifier) @call
  (template_function name: (identifier) @call)
  (field_expression argument: (_) @receiver field: [
    (field_identifier) @call
    (template_method name: (field_identifier) @call)
    (dependent_name (template_method name: (field_identifier) @call))
  ])
  (qualified_identifier !scope name: [(identifier) @call (template_function name: (identifier) @call)])
  (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(identifier) @call (template_function name: (identifier) @call)])
  (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(identifier) @call (template_function name: (identifier) @call)]))
  (qualified_identifier name: (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(identifier) @call (template_function name: (identifier) @call)])))
])
  (#not-any-of? @call "static_cast" "dynamic_cast" "const_cast" "reinterpret_cast"))

; new T(...), new ns::T<U>{...}, T{...}: constructions of T.
(new_expression type: [
  (type_identifier) @new
  (template_type name: (type_identifier) @new)
  (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(type_identifier) @new (template_type name: (type_identifier) @new)])
  (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(type_identifier) @new (template_type name: (type_identifier) @new)]))
])
(compound_literal_expression type: [
  (type_identifier) @new
  (template_type name: (type_identifier) @new)
  (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(type_identifier) @new (template_type name: (type_identifier) @new)])
  (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(type_identifier) @new (template_type name: (type_identifier) @new)]))
])

; class A : public B, private ns::C, public D<A>, public ::x::E.
(base_class_clause [
  (type_identifier) @inherit
  (template_type name: (type_identifier) @inherit)
  (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(type_identifier) @inherit (template_type name: (type_identifier) @inherit)])
  (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(type_identifier) @inherit (template_type name: (type_identifier) @inherit)]))
])

; Type names: a qualified one `ns::T`, `a::b::T<U>` anywhere (the innermost
; qualified name holds the type); a bare one, also as `T<U>` or a tag without
; a body (`struct stat st;`), in a field `type:` (all of this grammar's hold a
; type: declarations, parameters, return types, typedefs, `using` aliases,
; template arguments, casts, `new`, which ranks before a type use). A
; definition's own name is no use, nor is the class of an out-of-line member
; (`Foo<T>::bar`).
(qualified_identifier
  scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
  name: [(type_identifier) @type (template_type name: (type_identifier) @type)])
(_ type: [
  (type_identifier) @type
  (template_type name: (type_identifier) @type)
  (struct_specifier name: (type_identifier) @type !body)
  (class_specifier name: (type_identifier) @type !body)
  (union_specifier name: (type_identifier) @type !body)
  (enum_specifier name: (type_identifier) @type !body)
])
(optional_type_parameter_declaration default_type: [
  (type_identifier) @type
  (template_type name: (type_identifier) @type)
])

; #include "a/b.h" and #include <vector> (not `#include MACRO`).
(preproc_include path: [(string_literal) (system_lib_string)] @import.include)
