package dev.switchboard.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** All HTTP APIs live at the server root: /healthz, /v1/..., and later /rpc and /ingress/... */
@ApplicationPath("/")
public class SwitchboardApplication extends Application {
}
