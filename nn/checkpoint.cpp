// placeholder: checkpoint
