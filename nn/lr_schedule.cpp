// placeholder: lr_schedule
