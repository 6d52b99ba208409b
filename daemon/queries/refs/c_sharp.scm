; comP reference patterns for C# (see python.scm for the captures). A
; qualified name `A.B.C` has `A.B` as its receiver. Type names are plain
; identifiers in this grammar: they are taken only where a type stands.
; Attributes are left out: `[Foo]` names the class FooAttribute.

; Calls: F(), F<T>(), obj.M(), Type.M<T>(), this.M(), base.M(), obj?.M().
((invocation_expression function: [
  (identifier) @call
  (generic_name (identifier) @call)
  (member_access_expression expression: _ @receiver name: [(identifier) @call (generic_name (identifier) @call)])
  (conditional_access_expression condition: (_) @receiver
    (member_binding_expression name: [(identifier) @call (generic_name (identifier) @call)]))
])
  (#not-eq? @call "nameof"))

; new T(), new A.B.T<U>() (a target-typed `new()` names no type).
(object_creation_expression type: [
  (identifier) @new
  (generic_name (identifier) @new)
  (qualified_name qualifier: (_) @receiver name: [(identifier) @new (generic_name (identifier) @new)])
])

; Base lists, also `class A(int x) : B(x)`: the grammar cannot tell a base
; class from an interface, so all are @inherit (the resolver turns
; inherit-to-interface into implement).
(base_list [
  (identifier) @inherit
  (generic_name (identifier) @inherit)
  (qualified_name qualifier: (_) @receiver name: [(identifier) @inherit (generic_name (identifier) @inherit)])
  (primary_constructor_base_type type: [
    (identifier) @inherit
    (generic_name (identifier) @inherit)
    (qualified_name qualifier: (_) @receiver name: [(identifier) @inherit (generic_name (identifier) @inherit)])
  ])
])

; Type names by the place they stand in: every field `type:` of this grammar
; holds a type (declarations, parameters, casts, typeof, patterns, `T?`,
; `T[]`, base constructors and `new T()`, which rank before type uses), and
; so do return types, `as`/`is` types, type arguments and `IFoo.M()`.
(_ type: [
  (identifier) @type
  (generic_name (identifier) @type)
  (qualified_name qualifier: (_) @receiver name: [(identifier) @type (generic_name (identifier) @type)])
])
[
  (method_declaration returns: [
    (identifier) @type
    (generic_name (identifier) @type)
    (qualified_name qualifier: (_) @receiver name: [(identifier) @type (generic_name (identifier) @type)])
  ])
  (as_expression right: [
    (identifier) @type
    (generic_name (identifier) @type)
    (qualified_name qualifier: (_) @receiver name: [(identifier) @type (generic_name (identifier) @type)])
  ])
  (is_expression right: [
    (identifier) @type
    (generic_name (identifier) @type)
    (qualified_name qualifier: (_) @receiver name: [(identifier) @type (generic_name (identifier) @type)])
  ])
  (type_argument_list [
    (identifier) @type
    (generic_name (identifier) @type)
    (qualified_name qualifier: (_) @receiver name: [(identifier) @type (generic_name (identifier) @type)])
  ])
  (explicit_interface_specifier [
    (identifier) @type
    (generic_name (identifier) @type)
    (qualified_name qualifier: (_) @receiver name: [(identifier) @type (generic_name (identifier) @type)])
  ])
]
; `o is Foo`, `Foo => ..`: a bare name as a pattern is a type (or a constant).
(constant_pattern (identifier) @type)

; using A.B; using static A.B.C; (all their names) and using X = A.B.C;
; (also with `global`).
(using_directive !name [(identifier) (qualified_name)] @import.module @import.wildcard)
(using_directive name: (identifier) @import.alias [(identifier) (qualified_name)] @import.module)
