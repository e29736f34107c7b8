// placeholder: init
