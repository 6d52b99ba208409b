; TypeScript and TSX: heritage clauses and names in type positions.
(extends_clause value: (identifier) @inherit)
(extends_clause value: (member_expression object: (_) @receiver property: (property_identifier) @inherit))
(implements_clause (type_identifier) @implement)
(implements_clause (generic_type name: (type_identifier) @implement))
(implements_clause (nested_type_identifier module: (_) @receiver name: (type_identifier) @implement))
(extends_type_clause type: (type_identifier) @inherit)
(extends_type_clause type: (generic_type name: (type_identifier) @inherit))
(extends_type_clause type: (nested_type_identifier module: (_) @receiver name: (type_identifier) @inherit))

(type_annotation (type_identifier) @type)
(generic_type name: (type_identifier) @type)
(type_arguments (type_identifier) @type)
(union_type (type_identifier) @type)
(intersection_type (type_identifier) @type)
(array_type (type_identifier) @type)
(nested_type_identifier module: (_) @receiver name: (type_identifier) @type)
(as_expression (type_identifier) @type)
(satisfies_expression (type_identifier) @type)

; import x = require("m")
(import_statement (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import.module)))

; Variables of known type (see python.scm): fields, parameter properties,
; parameters and variables with a type annotation.
(public_field_definition name: (property_identifier) @bind.field type: (type_annotation (type_identifier) @type))
(public_field_definition name: (property_identifier) @bind.field
  type: (type_annotation (generic_type name: (type_identifier) @type)))
(required_parameter (accessibility_modifier) pattern: (identifier) @bind.field type: (type_annotation (type_identifier) @type))
(required_parameter (accessibility_modifier) pattern: (identifier) @bind.field
  type: (type_annotation (generic_type name: (type_identifier) @type)))
(required_parameter pattern: (identifier) @bind type: (type_annotation (type_identifier) @type))
(required_parameter pattern: (identifier) @bind type: (type_annotation (generic_type name: (type_identifier) @type)))
(optional_parameter pattern: (identifier) @bind type: (type_annotation (type_identifier) @type))
(variable_declarator name: (identifier) @bind type: (type_annotation (type_identifier) @type))
(variable_declarator name: (identifier) @bind type: (type_annotation (generic_type name: (type_identifier) @type)))
(public_field_definition name: (property_identifier) @bind.field value: (new_expression constructor: (identifier) @new))
