; comP reference patterns for Python: the edges of the dependency graph.
; Captures: @call (callee name), @receiver (what the name is looked up on),
; @inherit (a base class), @type (a name in an annotation), and for imports
; @import.module (module as written), @import.name, @import.alias,
; @import.wildcard. parse/references.cc turns each match into a Reference.

(call function: (identifier) @call)
(call function: (attribute object: (_) @receiver attribute: (identifier) @call))

(class_definition superclasses: (argument_list (identifier) @inherit))
(class_definition superclasses: (argument_list (attribute object: (_) @receiver attribute: (identifier) @inherit)))

(type (identifier) @type)
(type (attribute object: (_) @receiver attribute: (identifier) @type))
(type (generic_type (identifier) @type))

(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name)
(import_from_statement module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.wildcard)

; Variables of known type: `x = Foo()`, `x: Foo`, `def f(x: Foo)`, `self.x = Foo()`,
; class-level `x: Foo`. @bind names the variable whose type the target is.
(assignment left: (identifier) @bind right: (call function: (identifier) @call))
(assignment left: (identifier) @bind right: (call function: (attribute object: (_) @receiver attribute: (identifier) @call)))
(assignment left: (attribute object: (identifier) @_self) @bind right: (call function: (identifier) @call)
  (#eq? @_self "self"))
(assignment left: (attribute object: (identifier) @_self) @bind
  right: (call function: (attribute object: (_) @receiver attribute: (identifier) @call))
  (#eq? @_self "self"))
(assignment left: (identifier) @bind type: (type (identifier) @type))
(assignment left: (attribute object: (identifier) @_self) @bind type: (type (identifier) @type) (#eq? @_self "self"))
(class_definition body: (block (expression_statement (assignment left: (identifier) @bind.field type: (type (identifier) @type)))))
(typed_parameter (identifier) @bind type: (type (identifier) @type))
(typed_default_parameter name: (identifier) @bind type: (type (identifier) @type))
