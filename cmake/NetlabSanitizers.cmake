# NETLAB_SANITIZE=address,undefined (or thread) instruments every target.
set(NETLAB_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined or thread")
if(NETLAB_SANITIZE)
  add_compile_options(-fsanitize=${NETLAB_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${NETLAB_SANITIZE})
endif()
