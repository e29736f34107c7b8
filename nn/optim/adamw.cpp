// placeholder: optim/adamw
