package dev.switchboard.cli;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** jagc's {@code auth providers}: the model providers and their credentials. */
@Command(name = "auth", description = "Model-provider credentials (jagc).")
final class AuthCommand {

    @Spec
    CommandSpec spec;

    @Command(name = "providers", description = "Lists model providers: <provider> auth:<type|missing> oauth:<yes|no> models:<available>/<total>.")
    int providers(@Option(names = "--json", description = "print the server's answer, {\"providers\":[…]}, as JSON") boolean json) {
        JsonObject answer = Switchboard.of(spec).api().get("/v1/auth/providers");
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(answer);
            return 0;
        }
        for (JsonValue value : answer.getJsonArray("providers")) {
            JsonObject p = value.asJsonObject();
            String auth = p.get("credential_type") instanceof JsonString type ? type.getString() : "missing";
            String line = p.getString("provider", "?") + " auth:" + auth + " oauth:"
                    + (p.getBoolean("oauth_supported", false) ? "yes" : "no") + " models:" + Texts.string(p, "available_models")
                    + "/" + Texts.string(p, "total_models");
            if (p.get("env_var_hint") instanceof JsonString hint) {
                line += " env:" + hint.getString();
            }
            out.println(line);
        }
        return 0;
    }
}
