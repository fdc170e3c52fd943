import type { Dimensions } from "@vu/api-responses";
import { authOf } from "../http/authenticate";
import type { Register } from "./routeDeps";

export const DIMENSIONS_PATH = "/api/v1/stats/dimensions";

/** The seed lists no parameters (and no 400) here, so any query string is ignored. */
export const registerV1StatsDimensions: Register = (router, { reader }) => {
  router.get(DIMENSIONS_PATH, async (_req, res) => {
    const { org } = authOf(res.locals);
    const view = await reader.view();
    // The member set (often the largest) is not part of the answer, so it is not read.
    const dims = await reader.dimensions(view.generation, org, ["voice_model", "language_model", "app_name"]);
    await reader.confirm(view);
    const body: Dimensions = {
      voice_models: dims.voice_model,
      language_models: dims.language_model,
      app_names: dims.app_name,
    };
    res.json(body);
  });
};
