// placeholder: layer_norm
