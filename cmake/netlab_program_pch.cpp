// Compiles the precompiled header every program reuses (cmake/NetlabPrograms.cmake).
