// placeholder: embedding
