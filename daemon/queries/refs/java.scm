; comP reference patterns for Java (see python.scm for the captures). A
; qualified type `a.b.C` or `Outer.Inner` has its qualifier as the receiver.

; Calls: m(), obj.m(), Type.m(), this.f.m(), super.m(); a method reference
; Type::m is a use of m as well.
(method_invocation object: (_)? @receiver name: (identifier) @call)
(method_reference . (_) @receiver (identifier) @call .)

; Constructor calls: new T(), new a.b.T(), new T<>(), Type::new.
(object_creation_expression type: [
  (type_identifier) @new
  (scoped_type_identifier (_) @receiver . (type_identifier) @new .)
  (generic_type [(type_identifier) @new (scoped_type_identifier (_) @receiver . (type_identifier) @new .)])
])
(method_reference . [(identifier) (type_identifier)] @new . "new")

; class A extends B implements C, D; interface I extends J, K.
(superclass [
  (type_identifier) @inherit
  (scoped_type_identifier (_) @receiver . (type_identifier) @inherit .)
  (generic_type [(type_identifier) @inherit (scoped_type_identifier (_) @receiver . (type_identifier) @inherit .)])
])
(extends_interfaces (type_list [
    (type_identifier) @inherit
    (scoped_type_identifier (_) @receiver . (type_identifier) @inherit .)
    (generic_type [(type_identifier) @inherit (scoped_type_identifier (_) @receiver . (type_identifier) @inherit .)])
  ]))
(super_interfaces (type_list [
    (type_identifier) @implement
    (scoped_type_identifier (_) @receiver . (type_identifier) @implement .)
    (generic_type [(type_identifier) @implement (scoped_type_identifier (_) @receiver . (type_identifier) @implement .)])
  ]))

; Type names by the place they stand in: every field `type:` of this grammar
; holds one (declarations, parameters, return types, casts, `new`, which
; ranks before a type use), and so do the places below; a type parameter's
; own name is no use and `var` is no type. T, a.b.T, Outer.Inner.
((_ type: [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (#not-eq? @type "var"))
[
  (spread_parameter [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (instanceof_expression right: [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (type_pattern [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (catch_type [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (class_literal [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (array_type element: [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (generic_type [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (type_arguments [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (wildcard [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (type_bound [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (throws [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
  (permits (type_list [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)]))
  (method_reference . [(type_identifier) @type (scoped_type_identifier (_) @receiver . (type_identifier) @type .)])
]
(record_pattern . (identifier) @type)
(marker_annotation name: [(identifier) @type (scoped_identifier scope: (_) @receiver name: (identifier) @type)])
(annotation name: [(identifier) @type (scoped_identifier scope: (_) @receiver name: (identifier) @type)])

; import a.b.C; import static a.b.C.m; (the module as written: the resolver
; finds the class in it); import a.b.*; import static a.b.C.*;
(import_declaration [(scoped_identifier) (identifier)] @import.module .)
(import_declaration [(scoped_identifier) (identifier)] @import.module (asterisk) @import.wildcard)
