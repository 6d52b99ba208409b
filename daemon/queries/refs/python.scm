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
