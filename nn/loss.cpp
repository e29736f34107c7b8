// placeholder: loss
