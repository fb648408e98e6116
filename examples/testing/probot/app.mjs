// A Probot app as Probot's documentation writes one: nothing in it knows about feedgate.
export default (app) => {
  app.on("issues.opened", async (context) => {
    const comment = context.issue({ body: `Thanks for opening this issue, @${context.payload.sender.login}!` });
    await context.octokit.rest.issues.createComment(comment);
  });
};
