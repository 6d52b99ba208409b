; comP reference patterns for Rust (see python.scm for the captures). A path
; `a::b::f` has `a::b` as its receiver (`::` reads as `.`); `Self` as a name
; is left out (the resolver cannot tell which type it is from the name).

; Calls: f(), a::f(), Type::new(), Vec::<u8>::new(), x.m(), self.m(),
; f::<T>(); a tuple struct or variant built as Foo(x) reads as a call of Foo.
((call_expression function: [
  (identifier) @call
  (scoped_identifier path: [(identifier) (scoped_identifier) (self) (super) (crate) (bracketed_type)] @receiver name: (identifier) @call)
  (scoped_identifier path: (generic_type type: [(type_identifier) (scoped_type_identifier)] @receiver) name: (identifier) @call)
  (field_expression value: (_) @receiver field: (field_identifier) @call)
  (generic_function function: [
    (identifier) @call
    (scoped_identifier path: [(identifier) (scoped_identifier) (self) (super) (crate) (bracketed_type)] @receiver name: (identifier) @call)
    (field_expression value: (_) @receiver field: (field_identifier) @call)
  ])
])
  (#not-any-of? @call "Some" "Ok" "Err" "Self"))

; Macro calls, but for the standard library's.
((macro_invocation macro: (identifier) @call)
  (#not-any-of? @call "assert" "assert_eq" "assert_ne" "cfg" "column" "compile_error" "concat" "dbg" "debug_assert"
    "debug_assert_eq" "debug_assert_ne" "env" "eprint" "eprintln" "file" "format" "format_args" "include"
    "include_bytes" "include_str" "line" "matches" "module_path" "option_env" "panic" "print" "println" "stringify"
    "thread_local" "todo" "unimplemented" "unreachable" "vec" "write" "writeln"))
(macro_invocation macro: (scoped_identifier path: (_) @receiver name: (identifier) @call))

; Struct literals Foo { .. }, a::Foo { .. }, Foo::<T> { .. }: constructions.
((struct_expression name: [
  (type_identifier) @new
  (scoped_type_identifier path: (_) @receiver name: (type_identifier) @new)
  (generic_type_with_turbofish type: [
    (type_identifier) @new
    (scoped_identifier path: (_) @receiver name: (identifier) @new)
  ])
])
  (#not-eq? @new "Self"))

; trait A: B + c::D (supertraits); impl Trait for Type (the reference is the
; impl block's: its name is Type).
(trait_item bounds: (trait_bounds [
  (type_identifier) @inherit
  (scoped_type_identifier path: (_) @receiver name: (type_identifier) @inherit)
  (generic_type type: [
    (type_identifier) @inherit
    (scoped_type_identifier path: (_) @receiver name: (type_identifier) @inherit)
  ])
]))
(impl_item trait: [
  (type_identifier) @implement
  (scoped_type_identifier path: (_) @receiver name: (type_identifier) @implement)
  (generic_type type: [
    (type_identifier) @implement
    (scoped_type_identifier path: (_) @receiver name: (type_identifier) @implement)
  ])
])

; Type names: a path `a::B` anywhere; a bare name, also as `B<..>`, by the
; place it stands in (a definition's name, a type parameter's and an impl's
; own type are no uses).
(scoped_type_identifier path: (_) @receiver name: (type_identifier) @type)
([
  (parameter type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (let_declaration type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (function_item return_type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (function_signature_item return_type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (closure_expression return_type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (field_declaration type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (ordered_field_declaration_list type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (const_item type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (static_item type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (type_item type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (type_parameter default_type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (reference_type type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (pointer_type type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (array_type element: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (tuple_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (type_arguments [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (type_binding type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (type_cast_expression type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (dynamic_type trait: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (abstract_type trait: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (bounded_type [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (trait_bounds [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (higher_ranked_trait_bound type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (removed_trait_bound [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (where_predicate left: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (function_type parameters: (parameters [(type_identifier) @type (generic_type type: (type_identifier) @type)]))
  (function_type return_type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (qualified_type type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (qualified_type alias: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (struct_pattern type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
]
  (#not-eq? @type "Self"))
; Variants and tuple structs matched in patterns: `Msg::Move(x) =>`.
(tuple_struct_pattern type: (scoped_identifier path: (_) @receiver name: (identifier) @type))

; use a::b::{c, d as e, self, *}; (symbols.cc expands the tree); `mod util;`
; (a module in its own file; a `mod m { .. }` with a body is a definition).
(use_declaration argument: (_) @import.tree)
(mod_item name: (identifier) @import.submodule !body)
