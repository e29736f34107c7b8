// placeholder: linear
