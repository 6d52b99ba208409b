; comP reference patterns for C (see python.scm for the captures). A call
; through a member, `s->ops->f()`, has the member path as its receiver
; ("s.ops"); calls through a parenthesized function pointer `(*fp)()` have no
; name and are left out.

(call_expression function: (identifier) @call)
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @call))

; Type names: every field `type:` of this grammar holds a type (declarations,
; parameters, fields, return types, typedefs, casts, sizeof): a typedef name or
; a tag used without a body (`struct config cfg;`). A tag declared with its
; body is a definition, not a use.
(_ type: [
  (type_identifier) @type
  (struct_specifier name: (type_identifier) @type !body)
  (union_specifier name: (type_identifier) @type !body)
  (enum_specifier name: (type_identifier) @type !body)
])

; #include "a/b.h" and #include <b.h> (not `#include MACRO`).
(preproc_include path: [(string_literal) (system_lib_string)] @import.include)
