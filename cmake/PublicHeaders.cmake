# mg_public_headers(TARGET): TARGET's consumers find only the public headers of its folder, its
# own sources all of them (docs/architecture.md, "Layers"). A header is its folder's own when it is
# named *_internal.h or opens with "Internal to" (the rule scripts/check-layers.sh reads); the
# others are linked into build/include/<folder>/, the one include path TARGET exports. A public
# header that includes an internal one fails to compile in a consumer, so its types stay its
# folder's. A unit test that tests a folder's internals adds the folder itself (mg_test_internals).
function(mg_public_headers target)
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
  set(public_dir ${PROJECT_BINARY_DIR}/include/${folder})
  file(GLOB headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.h
       ${CMAKE_CURRENT_SOURCE_DIR}/*.def ${CMAKE_CURRENT_SOURCE_DIR}/*.inc)
  file(MAKE_DIRECTORY ${public_dir})
  foreach(header IN LISTS headers)
    get_filename_component(name ${header} NAME)
    file(STRINGS ${header} opening LIMIT_COUNT 5)
    if(name MATCHES "_internal\\.h$" OR opening MATCHES "Internal to")
      file(REMOVE ${public_dir}/${name})
    else()
      file(CREATE_LINK ${header} ${public_dir}/${name} SYMBOLIC)
    endif()
  endforeach()
  target_include_directories(${target} PUBLIC ${public_dir} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

# mg_test_internals(TARGET FOLDER...): a unit test of a module that includes the internal headers
# of the folders of src/ it tests (docs/architecture.md: only a module's tests may).
function(mg_test_internals target)
  foreach(folder IN LISTS ARGN)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src/${folder})
  endforeach()
endfunction()
