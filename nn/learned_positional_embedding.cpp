// placeholder: learned_positional_embedding
