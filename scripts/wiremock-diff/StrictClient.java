// WireMock's own Java client (from the standalone jar) driving a server's admin API: its Jackson mapper
// refuses unknown fields in stub mappings, serve events and near misses, so an extra field Tonearm
// writes fails here where the Python client would ignore it. Run by scripts/wiremock-diff.py:
//
//     java -cp wiremock-standalone-2.35.1.jar scripts/wiremock-diff/StrictClient.java PORT
//
// Prints one line per call and exits 1 at the first call the client cannot parse.

import static com.github.tomakehurst.wiremock.client.WireMock.*;

import com.github.tomakehurst.wiremock.client.WireMock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.Callable;

public class StrictClient {
    static int failures = 0;

    static void check(String what, Callable<Object> call) {
        try {
            Object result = call.call();
            System.out.println("ok      " + what + (result == null ? "" : ": " + String.valueOf(result).replace('\n', ' ').substring(0, Math.min(80, String.valueOf(result).length()))));
        } catch (Throwable error) {
            failures++;
            System.out.println("REFUSED " + what + ": " + String.valueOf(error).replace('\n', ' '));
        }
    }

    public static void main(String[] arguments) throws Exception {
        int port = Integer.parseInt(arguments[0]);
        WireMock client = new WireMock("127.0.0.1", port);
        WireMock.configureFor("127.0.0.1", port); // the static calls below use the default instance
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String base = "http://127.0.0.1:" + port;

        check("resetToDefault", () -> { client.resetToDefaultMappings(); return null; });
        check("stubFor exact", () -> client.register(get(urlEqualTo("/strict/exact")).willReturn(ok("exact").withHeader("X-A", "1"))));
        check("stubFor pattern", () -> client.register(post(urlPathMatching("/strict/p/[0-9]+"))
            .withHeader("Content-Type", containing("json")).withRequestBody(equalToJson("{\"a\":1}")).willReturn(aResponse().withStatus(201))));
        check("stubFor scenario", () -> client.register(get(urlEqualTo("/strict/s")).inScenario("S").whenScenarioStateIs("Started")
            .willSetStateTo("Two").willReturn(ok("one"))));
        // The same mappings sent as JSON, so the reads below parse mappings and matched serve events even
        // where the client's own (text/plain) creation is refused.
        for (String mapping : new String[] {
            "{\"request\":{\"method\":\"GET\",\"url\":\"/strict/json\"},\"response\":{\"status\":200,\"body\":\"j\",\"headers\":{\"X-A\":\"1\"}}}",
            "{\"name\":\"named\",\"priority\":2,\"metadata\":{\"k\":1},\"request\":{\"method\":\"POST\",\"urlPathPattern\":\"/strict/p/[0-9]+\",\"headers\":{\"X-B\":{\"contains\":\"b\"}}},\"response\":{\"status\":201}}",
            "{\"scenarioName\":\"J\",\"requiredScenarioState\":\"Started\",\"newScenarioState\":\"Two\",\"request\":{\"method\":\"GET\",\"url\":\"/strict/js\"},\"response\":{\"body\":\"one\"}}",
        }) {
            http.send(HttpRequest.newBuilder(URI.create(base + "/__admin/mappings")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(mapping)).build(), HttpResponse.BodyHandlers.discarding());
        }
        for (String path : new String[] {"/strict/exact", "/strict/s", "/strict/missing", "/strict/json", "/strict/js"}) {
            http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.discarding());
        }
        check("listAllStubMappings", () -> client.allStubMappings().getMappings().size());
        check("getServeEvents", () -> client.getServeEvents().size());
        check("getServeEvent by id", () -> client.getServeEvents().get(0).getRequest().getUrl());
        check("find", () -> client.find(getRequestedFor(urlMatching("/strict/.*"))).size());
        check("verify", () -> { client.verifyThat(1, getRequestedFor(urlEqualTo("/strict/exact"))); return null; });
        check("findUnmatchedRequests", () -> WireMock.findUnmatchedRequests().size());
        check("findNearMissesForAllUnmatched", () -> client.findNearMissesForAllUnmatchedRequests().size());
        check("findNearMissesFor pattern", () -> client.findAllNearMissesFor(getRequestedFor(urlEqualTo("/strict/exac"))).size());
        check("getAllScenarios", () -> WireMock.getAllScenarios().size());
        check("resetScenarios", () -> { client.resetScenarios(); return null; });
        check("resetRequests", () -> { client.resetRequests(); return null; });
        check("resetMappings", () -> { client.resetMappings(); return null; });
        System.out.println(failures == 0 ? "strict client: every call parsed" : "strict client: " + failures + " calls refused");
        System.exit(failures == 0 ? 0 : 1);
    }
}
