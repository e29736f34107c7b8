// placeholder: sinusoidal_positional_encoding
