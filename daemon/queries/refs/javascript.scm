; JavaScript only (TypeScript's class_heritage holds an extends_clause).
(class_heritage (identifier) @inherit)
(class_heritage (member_expression object: (_) @receiver property: (property_identifier) @inherit))
